// A fetch stand-in for component tests: one handler sees every request and answers it.
import { vi } from 'vitest';

export interface MockRequest {
  method: string;
  url: URL;
  path: string;
  /** The body parsed as JSON (undefined when none or not JSON). */
  json: unknown;
  body: BodyInit | null | undefined;
}

export type MockHandler = (request: MockRequest) => Response | Promise<Response>;

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Stubs the global fetch; undo with vi.unstubAllGlobals(). */
export function installFetch(handler: MockHandler) {
  const requests: MockRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    let json: unknown;
    if (typeof init.body === 'string') {
      try {
        json = JSON.parse(init.body);
      } catch {
        json = undefined;
      }
    }
    const request: MockRequest = { method: init.method ?? 'GET', url, path: url.pathname, json, body: init.body };
    requests.push(request);
    return handler(request);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, requests };
}
