#!/usr/bin/env node
// `npm run dev`: the API server (restarting on change) and the Vite dev server side by side.
import { spawn } from 'node:child_process';

const children = [
  spawn('npm', ['run', 'dev', '-w', '@giftlens/server'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', '@giftlens/web'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => { if (code) { stop(); process.exitCode = code; } });
