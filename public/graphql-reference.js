/* global document, window */
// The GraphQL reference's search box. Every entry of the page carries its schema coordinate in
// data-coordinate (`Type`, `Type.field`, `Type.field(argument:)`, `Enum.VALUE`, `@directive`);
// typing lists the entries whose name or coordinate matches, best first, as links to them. The
// box is hidden until this script shows it; without it the contents and the page stay usable.
const MAX_RESULTS = 50;
/** Shorter queries match names only: two letters are in most descriptions. */
const MIN_DESCRIPTION_QUERY = 3;
const KIND_ORDER = ['object', 'input', 'enum', 'interface', 'union', 'scalar', 'directive'];

const search = document.querySelector('.reference-search');
const input = document.getElementById('reference-search-input');
const status = document.getElementById('reference-search-status');
const results = document.getElementById('reference-search-results');
const contents = document.querySelector('.reference-contents');

/** The last name in a coordinate: `input` in `Mutation.createVirtualInterviewEvent(input:)`. */
const nameOf = (coordinate) => /[_A-Za-z0-9]+(?=:\)$|$)/.exec(coordinate)?.[0] ?? coordinate;

const entries = [...document.querySelectorAll('[data-coordinate]')].map((element) => {
  const coordinate = element.dataset.coordinate;
  const description = element.querySelector(':scope > .description');
  return {
    id: element.id,
    coordinate,
    lowerCoordinate: coordinate.toLowerCase(),
    name: nameOf(coordinate),
    lowerName: nameOf(coordinate).toLowerCase(),
    kind: element.dataset.kind,
    api: element.closest('[data-api]')?.dataset.api ?? '',
    description: (description?.textContent ?? '').toLowerCase(),
  };
});

/** Lower is better; null when the entry does not match. */
function rank(entry, query, lowerQuery) {
  if (entry.name === query) return 0;
  if (entry.lowerName === lowerQuery) return 1;
  if (entry.lowerName.startsWith(lowerQuery)) return 2;
  if (entry.lowerCoordinate.includes(lowerQuery)) return 3;
  if (lowerQuery.length >= MIN_DESCRIPTION_QUERY && entry.description.includes(lowerQuery)) {
    return 4;
  }
  return null;
}

/** Types before their members, and members before arguments, at the same rank. */
function kindOrder(entry) {
  const index = KIND_ORDER.indexOf(entry.kind);
  if (index >= 0) return index;
  return entry.kind === 'argument' ? KIND_ORDER.length + 1 : KIND_ORDER.length;
}

function matches(query) {
  const lowerQuery = query.toLowerCase();
  return entries
    .flatMap((entry) => {
      const score = rank(entry, query, lowerQuery);
      return score === null ? [] : [{ entry, score }];
    })
    .sort(
      (a, b) =>
        a.score - b.score ||
        kindOrder(a.entry) - kindOrder(b.entry) ||
        a.entry.coordinate.length - b.entry.coordinate.length ||
        a.entry.coordinate.localeCompare(b.entry.coordinate),
    )
    .map(({ entry }) => entry);
}

function resultItem(entry) {
  const item = document.createElement('li');
  const link = document.createElement('a');
  link.href = `#${entry.id}`;
  const code = document.createElement('code');
  code.textContent = entry.coordinate;
  const context = document.createElement('span');
  context.className = 'result-context';
  context.textContent = `${entry.kind} · ${entry.api}`;
  link.append(code, context);
  item.append(link);
  return item;
}

function show() {
  const query = input.value.trim();
  if (query === '') {
    results.replaceChildren();
    status.textContent = '';
    return;
  }
  const found = matches(query);
  results.replaceChildren(...found.slice(0, MAX_RESULTS).map(resultItem));
  if (found.length === 0) status.textContent = `Nothing matches “${query}”.`;
  else if (found.length > MAX_RESULTS) {
    status.textContent = `The first ${MAX_RESULTS} of ${found.length} matches.`;
  } else status.textContent = found.length === 1 ? '1 match.' : `${found.length} matches.`;
}

if (search && input && status && results) {
  search.hidden = false;
  input.addEventListener('input', show);
  // Enter opens the best match.
  input.addEventListener('keydown', (event) => {
    const first = results.querySelector('a');
    if (event.key === 'Enter' && first) {
      event.preventDefault();
      first.click();
    }
  });
  show();
}

// Beside the page on a wide screen the contents are open; above it on a phone, folded.
if (contents && window.matchMedia('(min-width: 60rem)').matches) contents.open = true;
