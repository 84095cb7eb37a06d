import { html, type SafeHtml } from './html.js';
import { displayName, entryId, EntryRenderer } from './render-entries.js';
import { definitionsOf, isExtension, type ReferenceCatalog } from './sdl-catalog.js';

/** Where the page links outside itself, and the versions of its own script and stylesheet. */
export interface PageLinks {
  /** The merged SDL download (GET /schema.graphql). */
  schema: string;
  /** The REST and OAuth reference (/docs). */
  restReference: string;
  /** The console's API explorer. */
  explorer: string;
  /** The GraphQL endpoint partners POST to. */
  endpoint: string;
  script: string;
  stylesheet: string;
}

/**
 * The GraphQL reference: a section per SDL module (the shared one, then one per API, then
 * GraphQL's built-ins), the contents, and a search box the page's script (no inline script: the
 * service's policy refuses it) brings to life. Everything from the SDL is escaped.
 */
export function renderReference(catalog: ReferenceCatalog, links: PageLinks): string {
  const entries = new EntryRenderer(catalog);
  return `${html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <link rel="icon" href="/assets/favicon.svg" type="image/svg+xml" />
        <link rel="icon" href="/favicon.ico" sizes="32x32" />
        <title>GraphQL API reference · Hiring partner</title>
        <link rel="stylesheet" href="/assets/app.css" />
        <link rel="stylesheet" href="${links.stylesheet}" />
        <script src="${links.script}" defer></script>
      </head>
      <body class="graphql-reference">
        <a class="skip-link" href="#reference-main">Skip to the reference</a>
        <header class="reference-masthead">
          <p class="brand"><a href="/">Hiring partner</a></p>
          <nav class="reference-links" aria-label="Documentation">
            <a href="${links.restReference}">REST and OAuth reference</a>
            <a href="${links.explorer}">API explorer</a>
            <a href="${links.schema}">Download the schema (SDL)</a>
          </nav>
        </header>
        <div class="reference-layout">
          <aside class="reference-sidebar">${searchBox()} ${contents(catalog)}</aside>
          <main id="reference-main" class="reference-main">
            <h1>GraphQL API reference</h1>
            <p class="lead">
              Every type, field, argument and enum value of the APIs behind the GraphQL gateway at
              <code>POST ${links.endpoint}</code>, grouped by API. Requests carry an OAuth access
              token as described in the
              <a href="${links.restReference}">REST and OAuth reference</a>; try them in the
              <a href="${links.explorer}">API explorer</a>. The whole schema as one SDL document,
              for code generators and editors: <a href="${links.schema}">${links.schema}</a>.
            </p>
            ${catalog.modules.map((module) => entries.module(module))}
          </main>
        </div>
      </body>
    </html>`}\n`;
}

function searchBox(): SafeHtml {
  // Hidden until the script runs: without it, the contents and the browser's find still work.
  return html`<search class="reference-search" hidden>
    <label for="reference-search-input">Search the reference</label>
    <input
      type="search"
      id="reference-search-input"
      autocomplete="off"
      spellcheck="false"
      placeholder="Type, field, argument or value"
      aria-describedby="reference-search-status"
      aria-controls="reference-search-results"
    />
    <p id="reference-search-status" class="reference-search-status" aria-live="polite"></p>
    <ol id="reference-search-results" class="reference-search-results"></ol>
  </search>`;
}

/** Every module and its entries, folded on a phone (the script opens it on a wide screen). */
function contents(catalog: ReferenceCatalog): SafeHtml {
  return html`<details class="reference-contents">
    <summary>Contents</summary>
    <nav aria-label="Contents">
      ${catalog.modules.map(
        (module) =>
          html`<p class="contents-api"><a href="#${module.id}">${module.title}</a></p>
            <ul>
              ${definitionsOf(module).map(
                (definition) =>
                  html`<li>
                    <a href="#${entryId(module, definition)}">${displayName(definition)}</a>${
                      isExtension(definition) ? html` <span class="kind">extension</span>` : ''
                    }
                  </li>`,
              )}
            </ul>`,
      )}
    </nav>
  </details>`;
}
