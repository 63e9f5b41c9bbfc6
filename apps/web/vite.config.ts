import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { createServer, defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// The API server (apps/server) listens on :3000; in development Vite proxies API and media calls to it.
const apiTarget = 'http://127.0.0.1:3000';

/**
 * Puts the server-rendered landing page inside #root of the built index.html, so `/` paints before any
 * JavaScript runs (main.tsx hydrates it). index.html is also the shell of every other route (and the service
 * worker's navigation fallback), so an inline script empties #root before the first paint anywhere but `/`.
 */
function prerenderLanding(): Plugin {
  return {
    name: 'giftlens:prerender-landing',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        const vite = await createServer({
          configFile: false,
          root: import.meta.dirname,
          logLevel: 'error',
          appType: 'custom',
          server: { middlewareMode: true, hmr: false, ws: false },
          plugins: [react()],
        });
        try {
          const { renderLandingHtml } = (await vite.ssrLoadModule('/src/app/prerender.tsx')) as {
            renderLandingHtml: () => Promise<string>;
          };
          let body = await renderLandingHtml();
          // React emits resource hints (the hero image preload) first; they belong in <head>, not in #root
          // where hydration expects exactly the app's markup.
          const hints: string[] = [];
          body = body.replace(/^(<link [^>]*>)+/, (m) => (hints.push(m), ''));
          // On `/` the app starts after the first paint, so the prerendered page paints with only HTML and CSS
          // on the wire; on every other path #root is emptied and the app starts at once.
          const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(html);
          if (!entry) throw new Error('prerender: entry script not found in index.html');
          const boot =
            `<script>(function(){var load=function(){var s=document.createElement('script');s.type='module';` +
            `s.crossOrigin='';s.src=${JSON.stringify(entry[1])};document.head.appendChild(s)};` +
            `if(location.pathname==='/')requestAnimationFrame(function(){setTimeout(load)});` +
            `else{document.getElementById('root').replaceChildren();load()}})()</script>`;
          return html
            .replace(entry[0], '')
            .replace('</head>', `${hints.join('')}</head>`)
            .replace('<div id="root"></div>', `<div id="root">${body}</div>${boot}`);
        } finally {
          await vite.close();
        }
      },
    },
  };
}

/**
 * Writes `.br` and `.gz` next to every text asset of the build, so a static server can send them as they are
 * (@fastify/static `preCompressed: true`) instead of compressing on every request.
 */
function precompress(): Plugin {
  let outDir = '';
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const file = path.join(dir, name);
      return statSync(file).isDirectory() ? walk(file) : [file];
    });
  return {
    name: 'giftlens:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of walk(outDir)) {
          if (!/\.(js|css|html|svg|webmanifest|json|txt|vtt)$/.test(file) || statSync(file).size < 1024) continue;
          const body = readFileSync(file);
          writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
          writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
        }
      },
    },
  };
}

// React Router's package exports name only its development build (warnings for developers: ENABLE_DEV_WARNINGS
// is its one difference from the production build it ships beside it). A production build takes the production
// one: 0.6 KB less in the first bundle of every page (decision 046). Development and tests keep the warnings.
const reactRouterProduction = {
  find: /^react-router$/,
  replacement: path.join(path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist/production/index.mjs'),
};

export default defineConfig(({ mode }) => ({
  resolve: { alias: mode === 'production' ? [reactRouterProduction] : [] },
  plugins: [
    react(),
    tailwindcss(),
    prerenderLanding(),
    VitePWA({
      // We register the worker ourselves (features/pwa) so the update banner decides when it takes over.
      injectRegister: null,
      registerType: 'prompt',
      strategies: 'generateSW',
      filename: 'sw.js',
      scope: '/',
      includeAssets: ['favicon.svg', 'favicon.ico', 'robots.txt', 'icons/apple-touch-icon.png'],
      manifest: {
        id: '/',
        name: 'GiftLens',
        short_name: 'GiftLens',
        description: 'Attach a personal video, voice or text message to any gift. Scan the gift to reveal it.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: '#f0532d',
        background_color: '#fafaf9',
        categories: ['lifestyle', 'social'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The app shell and every lazily loaded page, so the whole site opens offline after one visit.
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        // Demo media are large and only needed by people who try the demo; they stay on the network. push-sw.js
        // is part of the worker itself (importScripts below): the browser checks it for updates with sw.js.
        globIgnores: ['demo-media/**', 'push-sw.js'],
        // Shows the sender's push notices and opens their page on a click (public/push-sw.js).
        importScripts: ['/push-sw.js'],
        navigateFallback: 'index.html',
        // API calls and signed media must always reach the server, never the cached shell.
        navigateFallbackDenylist: [/^\/api\//, /^\/media\//],
        cleanupOutdatedCaches: true,
      },
    }),
    precompress(),
  ],
  server: {
    port: 5173,
    proxy: { '/api': apiTarget, '/media': apiTarget },
  },
  // No modulepreload polyfill in the first bundle (decision 046): every browser the app supports preloads modules
  // itself but Safari before 17, which then fetches each module when it is imported, as it would without the tag.
  // TanStack Query in one chunk (decision 046): split by which screens use which part it made five files of 1 to 3
  // KB that every page with the data layer loads, 2.6 KB more gzip than the same code in one. Its one outside
  // dependency, React, stays in the entry's chunk (not pulled into this one, which would put it before `/`).
  build: {
    target: 'es2022',
    sourcemap: true,
    manifest: true,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'tanstack-query', test: /node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]/, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
}));
