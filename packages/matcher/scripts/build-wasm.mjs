// Assembles src/hamming.wat into src/hamming.wasm (WebAssembly text -> binary, with wabt). Run after editing the .wat;
// the unit tests fail while the committed binary and the text disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import { assembleWat } from './assemble.mjs';

const wat = new URL('../src/hamming.wat', import.meta.url);
const out = new URL('../src/hamming.wasm', import.meta.url);
const bytes = await assembleWat(readFileSync(wat, 'utf8'));
writeFileSync(out, bytes);
console.log(`wrote ${out.pathname} (${bytes.byteLength} bytes)`);
