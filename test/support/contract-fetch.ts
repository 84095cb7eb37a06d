import { assertResponseMatches } from './openapi-contract.js';

/**
 * A fetch that checks every response against openapi.yaml before handing it back, for client
 * libraries (openid-client, oauth4webapi) that make their own requests. Responses from other
 * origins, such as a client's redirect target, are passed through unchecked.
 */
export function contractFetch(origin: string) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const response = await fetch(request);
    const url = new URL(request.url);
    if (url.origin !== origin) return response;
    const text = await response.clone().text();
    const isJson = response.headers.get('content-type')?.includes('json');
    assertResponseMatches(request.method, url.pathname, {
      status: response.status,
      headers: response.headers,
      body: isJson && text ? JSON.parse(text) : text,
    });
    checked += 1;
    return response;
  };
}

let checked = 0;

/** How many responses contractFetch has checked so far (to prove the wrapper was used). */
export function contractChecks(): number {
  return checked;
}
