#!/usr/bin/env node
// `npm run build:server`: the compiled server in apps/server/dist (see scripts/lib/server-build.mjs, decision 022).
import { buildServer } from './lib/server-build.mjs';

const ms = await buildServer();
console.log(`Server built into apps/server/dist in ${(ms / 1000).toFixed(1)} s.`);
