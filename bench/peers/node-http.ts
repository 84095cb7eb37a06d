/** Ceiling: a bare node:http server answering one small JSON document. */
import { createServer } from 'node:http';
import { announce, listenOnLoopback } from './announce.js';

const body = JSON.stringify({ status: 'ok' });
const server = createServer((_request, response) => {
  response.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
});
announce(await listenOnLoopback(server));
