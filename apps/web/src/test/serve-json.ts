import { vi } from 'vitest';
import { jsonResponse } from './render-route.tsx';

/**
 * Answers the page's fetch calls from `routes`, keyed "METHOD path" (each handler gets the parsed JSON body);
 * any other call is a 500 the test will notice. Returns the spy, whose calls record what was sent.
 */
export function serveJson(routes: Record<string, (body: unknown) => Response>) {
  return vi.spyOn(window, 'fetch').mockImplementation((input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const handler = routes[`${init?.method ?? 'GET'} ${url}`];
    if (!handler) return Promise.resolve(jsonResponse({ success: false, error: `unexpected ${url}`, code: 'test' }, 500));
    return Promise.resolve(handler(typeof init?.body === 'string' ? JSON.parse(init.body) : undefined));
  });
}

/** The parsed JSON body of the first recorded call with this method (and path, when given). */
export function sentBody(spy: ReturnType<typeof serveJson>, method: string, path?: string): unknown {
  const call = spy.mock.calls.find(([input, init]) => (init?.method ?? 'GET') === method && (path === undefined || input === path));
  return call && typeof call[1]?.body === 'string' ? JSON.parse(call[1].body) : undefined;
}
