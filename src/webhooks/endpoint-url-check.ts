/**
 * Checks an endpoint URL before it is stored: the URL parsed and normalised, or a
 * ValidationError (field `url`) saying why it is refused. The management service is given one;
 * the SSRF guard's checkEndpointUrl (src/webhooks/ssrf/endpoint-url.ts) is the real one.
 */
export type EndpointUrlCheck = (url: string) => Promise<URL>;
