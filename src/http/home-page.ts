import { join } from 'node:path';
import { Router } from 'express';
import { PUBLIC_DIR, pageTemplates } from './views.js';

/** Where the home page points; `outbox` only where the development outbox exists. */
export interface HomeLinks {
  console: string;
  docs: string;
  graphqlDocs: string;
  outbox?: string;
}

/**
 * `GET /`: a page for whoever opens the service's address in a browser, pointing to the console,
 * the API reference and, in development, the outbox. And `/favicon.ico`, which browsers ask for
 * on every page that links no icon (a JSON answer, the API reference's own page).
 */
export function homeRouter(links: HomeLinks): Router {
  const router = Router();
  router.get('/', (_req, res) => {
    res.type('html').send(
      pageTemplates.render('home.njk', {
        console_href: links.console,
        docs_href: links.docs,
        graphql_docs_href: links.graphqlDocs,
        outbox_href: links.outbox ?? null,
      }),
    );
  });
  router.get('/favicon.ico', (_req, res) => {
    res.sendFile(join(PUBLIC_DIR, 'favicon.ico'), {
      maxAge: '1d',
      headers: { 'Content-Type': 'image/x-icon' },
    });
  });
  return router;
}
