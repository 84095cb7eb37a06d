/* global document, fetch */
// The console's API explorer: GraphiQL over the Interview API, with the short-lived access token
// the console issued for the partner's chosen app and employer. The page hands over the token and
// the endpoint in data attributes (the CSP allows no inline script).
import { GraphiQL } from 'graphiql';
import 'graphiql/graphiql.css';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { EXAMPLES } from './examples.js';
import './explorer.css';

function bearerFetcher(endpoint, token) {
  return async (params) => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify(params),
    });
    return response.json();
  };
}

const root = document.getElementById('explorer');
if (root) {
  const { endpoint, token, reference } = root.dataset;
  const [first] = EXAMPLES;
  // Where GraphiQL shows its logo (a link to its repository): our GraphQL reference instead.
  const logo = createElement(
    GraphiQL.Logo,
    null,
    createElement('a', { className: 'graphiql-logo-link', href: reference }, 'GraphQL reference'),
  );
  createRoot(root).render(
    createElement(
      GraphiQL,
      {
        fetcher: bearerFetcher(endpoint, token),
        defaultTabs: EXAMPLES,
        // GraphiQL 3 fills the first tab's variables editor only from these props.
        query: first.query,
        variables: first.variables,
        defaultEditorToolsVisibility: 'variables',
        isHeadersEditorEnabled: false,
      },
      logo,
    ),
  );
}
