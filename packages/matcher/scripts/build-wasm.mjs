// Assembles src/hamming.wat and src/orb.wat into their .wasm (WebAssembly text -> binary, with wabt). Run after
// editing a .wat; the unit tests fail while a committed binary and its text disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import { assembleWat } from './assemble.mjs';

for (const name of ['hamming', 'orb']) {
  const wat = new URL(`../src/${name}.wat`, import.meta.url);
  const out = new URL(`../src/${name}.wasm`, import.meta.url);
  const bytes = await assembleWat(readFileSync(wat, 'utf8'));
  writeFileSync(out, bytes);
  console.log(`wrote ${out.pathname} (${bytes.byteLength} bytes)`);
}
