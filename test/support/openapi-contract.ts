/**
 * Checks real HTTP responses against openapi.yaml: the status must be documented for the operation,
 * required headers present and valid, the media type one of those documented, and the body valid
 * against its schema. The document is read once and each schema compiled on first use.
 */
import { AssertionError } from 'node:assert';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import {
  createOpenApiAjv,
  readOpenApiDocument,
  resolveRef,
  toAjvSchema,
  type JsonObject,
  type OpenApiDocument,
} from '../../scripts/generate-openapi.js';

export interface ObservedResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the raw text (parsed here when the media type is JSON). */
  body: unknown;
}

let contract: { document: OpenApiDocument; ajv: Ajv2020 } | undefined;
const validators = new Map<string, ValidateFunction>();

export function openApiDocument(): OpenApiDocument {
  return load().document;
}

export function assertResponseMatches(
  method: string,
  path: string,
  response: ObservedResponse,
): void {
  const { document } = load();
  const label = `${method.toUpperCase()} ${path} -> ${response.status}`;
  const [template, operation] =
    findOperation(document, method, path) ?? fail(label, 'is not an operation of openapi.yaml');
  const responses = (operation.responses ?? {}) as JsonObject;
  const status = String(response.status);
  const documented = responses[status] ?? responses[`${status[0]}XX`] ?? responses.default;
  if (!documented) {
    fail(label, `status is not documented; documented: ${Object.keys(responses).join(', ')}`);
  }
  const spec = resolveRef(document, documented);
  const key = `${method.toLowerCase()} ${template} ${status}`;

  for (const [name, header] of Object.entries((spec.headers ?? {}) as JsonObject)) {
    checkHeader(
      label,
      `${key} header ${name}`,
      name,
      resolveRef(document, header),
      response.headers,
    );
  }

  const content = spec.content as Record<string, JsonObject> | undefined;
  if (!content) {
    // Redirect bodies are conventional filler; any other response without content must be empty.
    if (response.status >= 300 && response.status < 400) return;
    if (response.body !== undefined && response.body !== null && response.body !== '') {
      fail(label, 'has a body, but openapi.yaml documents none');
    }
    return;
  }
  const contentType = response.headers.get('content-type');
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const media = content[mediaType];
  if (!media) {
    fail(
      label,
      `content type ${contentType ?? '(none)'} is not one of ${Object.keys(content).join(', ')}`,
    );
  }
  const body =
    isJson(mediaType) && typeof response.body === 'string'
      ? parseJson(label, response.body)
      : response.body;
  if (media.schema) check(label, `${key} ${mediaType}`, media.schema, body);
}

/**
 * Checks a webhook delivery as a receiver got it against openapi.yaml's `webhooks:`: the type is
 * documented, the three signature headers are present and well-formed, the media type is the
 * documented one and the envelope matches its type's schema.
 */
export function assertWebhookMatches(delivery: { headers: Headers; body: string }): void {
  const { document } = load();
  const envelope = parseJson('webhook', delivery.body) as { type?: unknown };
  const type = String(envelope.type);
  const label = `webhook ${type}`;
  const webhooks = ((document as unknown as { webhooks?: JsonObject }).webhooks ?? {}) as Record<
    string,
    JsonObject
  >;
  const operation = webhooks[type]?.post as JsonObject | undefined;
  if (!operation) fail(label, 'is not a webhook of openapi.yaml');
  for (const reference of (operation.parameters ?? []) as unknown[]) {
    const parameter = resolveRef(document, reference);
    if (parameter.in === 'header') {
      checkHeader(
        label,
        `webhook ${type} ${String(parameter.name)}`,
        String(parameter.name),
        parameter,
        delivery.headers,
      );
    }
  }
  const content = (operation.requestBody as JsonObject).content as Record<string, JsonObject>;
  const mediaType = delivery.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  const media = content[mediaType];
  if (!media)
    fail(label, `content type ${mediaType} is not one of ${Object.keys(content).join(', ')}`);
  check(label, `webhook ${type} body`, media.schema, envelope);
}

function load(): { document: OpenApiDocument; ajv: Ajv2020 } {
  if (!contract) {
    const document = readOpenApiDocument();
    contract = { document, ajv: createOpenApiAjv(document) };
  }
  return contract;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Finds the operation for a concrete path; literal paths win over templated ones. */
function findOperation(
  document: OpenApiDocument,
  method: string,
  path: string,
): [string, JsonObject] | undefined {
  const verb = method.toLowerCase();
  if (!METHODS.includes(verb)) return undefined;
  const pathname = path.split(/[?#]/)[0] ?? '';
  const templates = Object.keys(document.paths).sort(
    (a, b) => Number(a.includes('{')) - Number(b.includes('{')),
  );
  for (const template of templates) {
    const pattern = template
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('');
    const operation = document.paths[template]?.[verb];
    if (operation && new RegExp(`^${pattern}$`).test(pathname)) {
      return [template, operation as JsonObject];
    }
  }
  return undefined;
}

function checkHeader(
  label: string,
  key: string,
  name: string,
  header: JsonObject,
  headers: Headers,
): void {
  const raw = headers.get(name);
  if (raw === null) {
    if (header.required === true) fail(label, `required header ${name} is missing`);
    return;
  }
  const schema = (header.schema ?? {}) as JsonObject;
  // Header values are text; compare numbers as numbers.
  const value = schema.type === 'integer' || schema.type === 'number' ? Number(raw) : raw;
  check(label, key, schema, value, `header ${name}`);
}

function check(label: string, key: string, schema: unknown, value: unknown, what = 'body'): void {
  const { document, ajv } = load();
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(toAjvSchema(schema, document) as JsonObject);
    validators.set(key, validate);
  }
  if (!validate(value)) {
    const details = ajv.errorsText(validate.errors, { dataVar: what });
    fail(
      label,
      `${what} does not match openapi.yaml: ${details}\n${JSON.stringify(value, null, 2)}`,
    );
  }
}

function isJson(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

function parseJson(label: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fail(label, `body is not JSON: ${text.slice(0, 200)}`);
  }
}

function fail(label: string, message: string): never {
  throw new AssertionError({ message: `${label}: ${message}` });
}
