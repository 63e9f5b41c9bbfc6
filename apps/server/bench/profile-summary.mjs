// node apps/server/bench/profile-summary.mjs FILE.cpuprofile [--top N]
// Where a --cpu-prof profile's time went: self time per function and per package (node_modules/<name>, node's
// own internals, our code), and the inclusive time of the frames that matter for a request's cost (Fastify's
// hooks, logging, serialization, the database). Used for decision 027.
import { readFileSync } from 'node:fs';

const [file, ...rest] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.mjs FILE.cpuprofile [--top N]');
const top = Number(rest[rest.indexOf('--top') + 1]) || 30;
const profile = JSON.parse(readFileSync(file, 'utf8'));

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
// Sample time: timeDeltas[i] is the time before sample i.
const self = new Map();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const idle = [...self].filter(([id]) => ['(idle)', '(program)', '(garbage collector)'].includes(byId.get(id).callFrame.functionName)).map(([id, t]) => [byId.get(id).callFrame.functionName, t]);

const where = (cf) => {
  const url = cf.url || '';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:') || (!url && cf.functionName)) return url.startsWith('node:') ? 'node' : 'native';
  if (url.includes('/apps/server/dist/')) return 'giftlens server';
  return url ? url.replace(/^.*\//, '') : '(vm)';
};
const ms = (us) => (us / 1000).toFixed(0).padStart(7);
const pct = (us) => ((100 * us) / total).toFixed(1).padStart(5) + '%';

const fnSelf = new Map();
const pkgSelf = new Map();
for (const [id, t] of self) {
  const cf = byId.get(id).callFrame;
  const key = `${cf.functionName || '(anonymous)'}  ${where(cf)}${cf.url ? ':' + (cf.lineNumber + 1) : ''}`;
  fnSelf.set(key, (fnSelf.get(key) ?? 0) + t);
  pkgSelf.set(where(cf), (pkgSelf.get(where(cf)) ?? 0) + t);
}

// Inclusive time per package: a sample counts once for each package on its stack.
const pkgIncl = new Map();
profile.samples.forEach((id, i) => {
  const seen = new Set();
  for (let n = id; n !== undefined; n = parent.get(n)) seen.add(where(byId.get(n).callFrame));
  for (const p of seen) pkgIncl.set(p, (pkgIncl.get(p) ?? 0) + (profile.timeDeltas[i] ?? 0));
});

console.log(`${file}: ${ms(total)} ms sampled; ${idle.map(([n, t]) => `${n} ${(t / 1000).toFixed(0)} ms`).join(', ')}`);
console.log('\nself time by package / origin          inclusive');
for (const [p, t] of [...pkgSelf].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${ms(t)} ms ${pct(t)}  ${p.padEnd(34)}${ms(pkgIncl.get(p) ?? 0)} ms`);
console.log('\nself time by function');
for (const [f, t] of [...fnSelf].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(t)} ms ${pct(t)}  ${f}`);

// Inclusive time per function (a sample counts once per function on its stack).
const fnIncl = new Map();
profile.samples.forEach((id, i) => {
  const seen = new Set();
  for (let n = id; n !== undefined; n = parent.get(n)) {
    const cf = byId.get(n).callFrame;
    if (cf.functionName) seen.add(`${cf.functionName}  ${where(cf)}${cf.url ? ':' + (cf.lineNumber + 1) : ''}`);
  }
  for (const f of seen) fnIncl.set(f, (fnIncl.get(f) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
console.log('\ninclusive time by function');
for (const [f, t] of [...fnIncl].filter(([f]) => !f.startsWith('(')).sort((a, b) => b[1] - a[1]).slice(0, top * 2))
  console.log(`${ms(t)} ms ${pct(t)}  ${f}`);
