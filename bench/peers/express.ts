/** Ceiling: a bare Express 5 app with one JSON route (what the service's routes are built on). */
import { createServer } from 'node:http';
import express from 'express';
import { announce, listenOnLoopback } from './announce.js';

const app = express();
app.get('/json', (_request, response) => {
  response.json({ status: 'ok' });
});
announce(await listenOnLoopback(createServer(app)));
