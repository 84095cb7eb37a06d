import assert from 'node:assert/strict';
import {
  buildSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  type GraphQLSchema,
} from 'graphql';
import { renderGraphQLReference, sdlSources } from '../../scripts/build-graphql-reference.js';
import { isSafeUrl } from '../../scripts/graphql-reference/descriptions.js';
import { loadTypeDefs } from '../../src/graphql/schema.js';

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

function decode(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!);
}

/** The ids of a page's elements, decoded. */
function idsOf(page: string): Set<string> {
  return new Set([...page.matchAll(/\sid="([^"]*)"/g)].map((match) => decode(match[1]!)));
}

/** What a reader sees of the page: its text without tags, whitespace collapsed. */
function textOf(page: string): string {
  const body = page.slice(page.indexOf('<body'));
  return collapse(decode(body.replace(/<[^>]*>/g, '')));
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A description as the page shows it: Markdown's code marks, list bullets, strong marks and link
 * addresses gone. Backticks are dropped on both sides (a code span may show one).
 */
function shown(description: string): string {
  return collapse(
    description
      .replace(/^\s*[-*]\s+/gm, '')
      .replace(/\*\*([^*]+)\*\*/g, '$1')
      .replace(/\[([^\]]+)\]\([^)\s]+\)/g, '$1'),
  ).replace(/`/g, '');
}

/** Every schema coordinate of a schema, with the description of what it names. */
function coordinates(schema: GraphQLSchema): Map<string, string | null | undefined> {
  const found = new Map<string, string | null | undefined>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    found.set(type.name, type.description);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        found.set(`${type.name}.${field.name}`, field.description);
        for (const argument of field.args) {
          found.set(`${type.name}.${field.name}(${argument.name}:)`, argument.description);
        }
      }
    }
    if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        found.set(`${type.name}.${field.name}`, field.description);
      }
    }
    if (isEnumType(type)) {
      for (const value of type.getValues()) {
        found.set(`${type.name}.${value.name}`, value.description);
      }
    }
  }
  for (const directive of schema.getDirectives()) {
    found.set(`@${directive.name}`, directive.description);
    for (const argument of directive.args) {
      found.set(`@${directive.name}(${argument.name}:)`, argument.description);
    }
  }
  return found;
}

/** The smallest gateway SDL plus the given module, as the reference reads schema/. */
function withModule(name: string, text: string) {
  const common = sdlSources().find((source) => source.name === 'common')!;
  return [common, { name, path: `schema/${name}.graphql`, text }];
}

describe('the GraphQL reference rendered from schema/', () => {
  const page = renderGraphQLReference();
  const ids = idsOf(page);
  const text = textOf(page);

  it('has an entry for every type, field, argument, enum value and directive of the merged schema, with its description', () => {
    // The schema the gateway serves: every SDL file under schema/, whichever appear later.
    const schema = buildSchema(loadTypeDefs());
    const expected = coordinates(schema);
    assert.ok(expected.has('Mutation.createVirtualInterviewEvent'));
    assert.ok(expected.has('WebhookEndpoint'));
    const missing = [...expected.keys()].filter((coordinate) => !ids.has(coordinate));
    assert.deepEqual(missing, [], 'entries missing from the page');
    const shownText = text.replace(/`/g, '');
    const undescribed = [...expected]
      .filter(([, description]) => description && !shownText.includes(shown(description)))
      .map(([coordinate]) => coordinate);
    assert.deepEqual(undescribed, [], 'descriptions missing from the page');
  });

  it('has a section for each SDL file under schema/, naming the file', () => {
    for (const source of sdlSources()) {
      assert.ok(ids.has(`api-${source.name}`), source.name);
      assert.ok(text.includes(`Defined in ${source.path}`), source.path);
    }
  });

  it('links every type in a signature, and every other link within the page, to an entry that exists', () => {
    const targets = [...page.matchAll(/href="#([^"]*)"/g)].map((match) => decode(match[1]!));
    assert.ok(targets.length > ids.size, 'the page links its entries');
    assert.deepEqual(
      targets.filter((target) => !ids.has(target)),
      [],
      'links to nothing',
    );
    // The input of createVirtualInterviewEvent, linked from its argument.
    const argument = page.slice(page.indexOf('id="Mutation.createVirtualInterviewEvent(input:)"'));
    assert.match(
      argument.slice(0, argument.indexOf('</li>')),
      /href="#CreateVirtualInterviewEventInput"/,
    );
  });

  it('links the merged SDL download, the REST reference and the explorer, and loads nothing from elsewhere', () => {
    assert.match(page, /href="\/schema\.graphql"/);
    assert.match(page, /href="\/docs"/);
    assert.match(page, /href="\/console\/explorer"/);
    const loaded = [...page.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map(
      (match) => match[1]!,
    );
    assert.ok(loaded.length >= 3, loaded.join(' '));
    for (const address of loaded) assert.match(address, /^\/(?!\/)/, address);
    // No inline script: the service's policy (script-src 'self') would refuse it.
    assert.doesNotMatch(page, /<script(?![^>]*\bsrc=)[^>]*>/);
    assert.doesNotMatch(page, /\son[a-z]+=/i, 'no event handler attributes');
  });

  it('picks up a new SDL file, prints directives it does not know as written, and shows deprecations', () => {
    const jobs = renderGraphQLReference(
      withModule(
        'job-search',
        `# ---------------------------------------------------------------------
# The job search API: postings to search.
# ---------------------------------------------------------------------

"""A weight for the test, as a cost directive would declare."""
directive @exampleCost(weight: String!) on FIELD_DEFINITION | ARGUMENT_DEFINITION

extend type Query {
  "Searches postings."
  jobSearch(
    "Words to look for."
    what: String @exampleCost(weight: "3")
    "Results wanted."
    first: Int = 20
  ): [JobPosting!]! @exampleCost(weight: "2")
}

"A posting."
type JobPosting {
  "Its title."
  title: String!
  "Where it is."
  place: String @deprecated(reason: "Use \`location\` instead.")
  location: JobLocation
}

"Where a posting is."
enum JobLocation {
  REMOTE
  ON_SITE @deprecated
}

"Something with a name."
interface Named {
  name: String!
}

"An office."
type Office implements Named {
  name: String!
}

"What a search finds."
union SearchHit = JobPosting | Office
`,
      ),
    );
    const jobIds = idsOf(jobs);
    for (const id of [
      'api-job-search',
      'JobPosting',
      'JobPosting.title',
      'JobLocation.ON_SITE',
      'Query.jobSearch',
      'Query.jobSearch(what:)',
      'Query.jobSearch(first:)',
      '@exampleCost',
      '@exampleCost(weight:)',
    ]) {
      assert.ok(jobIds.has(id), id);
    }
    const jobText = textOf(jobs);
    assert.ok(jobText.includes('Job search API'));
    assert.ok(jobText.includes('The job search API: postings to search.'));
    assert.ok(jobText.includes('@exampleCost(weight: "2")'), "the field's directive");
    assert.ok(jobText.includes('@exampleCost(weight: "3")'), "the argument's directive");
    assert.ok(jobText.includes('first: Int = 20'));
    assert.ok(jobText.includes('Deprecated: Use location instead.'));
    assert.ok(jobText.includes('Deprecated: No longer supported'), 'the default reason');
    assert.match(jobs, /<a href="#@exampleCost">@exampleCost<\/a>\(weight: &quot;2&quot;\)/);
    assert.match(jobs, /class="member is-deprecated"\s+id="JobPosting\.place"/);
    assert.match(jobs, /<a class="type-link" href="#JobLocation">JobLocation<\/a>/);
    assert.ok(jobText.includes('Implements Named'));
    assert.ok(jobText.includes('Implemented by Office'));
    assert.ok(jobText.includes('One of JobPosting, Office'));
    // The shared Query lists what the new API adds to it.
    const query = jobs.slice(jobs.indexOf('id="Query"'), jobs.indexOf('id="Mutation"'));
    assert.match(query, /href="#Query\.jobSearch"/);
  });

  it('escapes everything the SDL says, and renders only safe Markdown', () => {
    const hostile = renderGraphQLReference(
      withModule(
        'hostile',
        `extend type Query {
  """
  <script>alert(1)</script> **strong** and \`<b>code</b>\`, a [good link](https://example.com/a?b=1&c=2),
  a [bad link](javascript:alert(1)), [another](//evil.example) and <img src=x onerror=alert(1)>.

  - first <i>item</i>
  - second
  """
  hostile(
    "<em>argument</em>"
    text: String = "</code><script>alert(2)</script>"
  ): String @deprecated(reason: "<script>alert(3)</script>")
}
`,
      ),
    );
    assert.doesNotMatch(hostile, /<script>alert|<img|<b>code|<i>item|<em>argument/);
    assert.doesNotMatch(hostile, /href="javascript:|href="\/\/evil/);
    assert.match(hostile, /&lt;script&gt;alert\(1\)&lt;\/script&gt; <strong>strong<\/strong>/);
    assert.match(hostile, /<code>&lt;b&gt;code&lt;\/b&gt;<\/code>/);
    assert.match(hostile, /<a href="https:\/\/example\.com\/a\?b=1&amp;c=2">good link<\/a>/);
    assert.match(hostile, /\[bad link\]\(javascript:alert\(1\)\)/);
    assert.match(hostile, /<li>first &lt;i&gt;item&lt;\/i&gt;<\/li>/);
    assert.match(hostile, /= &quot;&lt;\/code&gt;&lt;script&gt;alert\(2\)&lt;\/script&gt;&quot;/);
    assert.match(hostile, /Deprecated<\/strong>: &lt;script&gt;alert\(3\)/);
  });

  it('follows only http(s) addresses and paths of this site', () => {
    for (const url of ['https://example.com/x', 'http://example.com', '/docs', '#Query']) {
      assert.ok(isSafeUrl(url), url);
    }
    for (const url of [
      'javascript:alert(1)',
      '//evil.example',
      '/\\evil.example',
      'data:text/html,x',
    ]) {
      assert.ok(!isSafeUrl(url), url);
    }
  });
});
