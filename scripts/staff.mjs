#!/usr/bin/env node
// `npm run staff -- reset-totp EMAIL --reason "…"`: the operator's staff command (apps/server/src/staff-cli.ts), run
// from the compiled server like `npm start` (built first when missing or older than its sources; what the build says
// goes to stderr, so stdout is the command's own answer).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServerIfStale, SERVER_DIST } from './lib/server-build.mjs';

await buildServerIfStale({ log: (line) => console.error(line) });
process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.join(SERVER_DIST, 'staff-cli.js')).href);
