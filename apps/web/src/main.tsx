// First: it configures Zod before any module builds a schema (zod-jitless.ts).
import './zod-jitless.ts';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppProviders } from './app/providers.tsx';
import { AppRouter, createAppRouter } from './app/router.tsx';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// The router starts with the first screen's code loaded (no empty first pass; for / there is nothing to load).
void createAppRouter().then((router) => {
  const app = (
    <StrictMode>
      <AppProviders>
        <AppRouter router={router} />
      </AppProviders>
    </StrictMode>
  );

  // `/` arrives prerendered (vite.config.ts, app/prerender.tsx): hydrate it, as a transition so the work is
  // split into small tasks and the page stays responsive. Every other path starts empty.
  if (root.firstElementChild) startTransition(() => void hydrateRoot(root, app));
  else createRoot(root).render(app);
});
