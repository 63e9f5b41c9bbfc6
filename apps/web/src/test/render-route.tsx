import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, useLocation, type InitialEntry, type RouteObject } from 'react-router';
import { render } from 'vitest-browser-react';

/** Where the app went: a stand-in page that shows its own path, for asserting navigation. */
function Elsewhere() {
  const { pathname } = useLocation();
  return <p data-testid="elsewhere">{pathname}</p>;
}

/**
 * Renders one screen at `url` as the app does (a router and a fresh TanStack Query client), for component tests
 * in the browser. Every other path renders a stand-in showing its path (`getByTestId('elsewhere')`).
 */
export async function renderRoute(route: RouteObject, url: InitialEntry, extra: RouteObject[] = []) {
  const router = createMemoryRouter([route, ...extra, { path: '*', element: <Elsewhere /> }], { initialEntries: [url] });
  const client = new QueryClient();
  const screen = await render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { screen, router };
}

/** A JSON answer as the server sends it. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}
