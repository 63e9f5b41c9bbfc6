/**
 * The JavaScript each route of the web app loads before the visitor's first interaction, from the built files
 * (Vite's manifest), against its budget (apps/web/route-budgets.json, decision 046).
 *
 * A route loads the entry chunk and its static imports, then what its budget entry lists under `load` (its lazily
 * loaded screen, and what the shell starts at once around it: the data layer, the footer, the toast outlet, a
 * prefetched next screen), each with its static imports. A chunk counts once per route. What loads later (on a
 * click, on the first interaction, when the browser offers installation) is left out, and must be named under
 * `afterInteraction`: every lazily loaded module of the entry chunk is either loaded by some route or listed
 * there, so a new route or a new lazily loaded part cannot go unmeasured. A route may carry a `goalKb` below its
 * budget (a goal not reached yet): the report shows it, only the budget fails the check.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const KB = 1024;

/** Gzip (level 9) size of a built file, in bytes. */
export function gzipSize(file) {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

/** Reads a build: its manifest and a (cached) gzip size per file. */
export function readBuild(dist) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
  const cache = new Map();
  const sizeOf = (file) => {
    if (!cache.has(file)) cache.set(file, gzipSize(join(dist, file)));
    return cache.get(file);
  };
  return { manifest, sizeOf };
}

/** The manifest key of the HTML entry (index.html). */
function entryKey(manifest) {
  const key = Object.keys(manifest).find((k) => manifest[k].isEntry && k.endsWith('.html'));
  if (!key) throw new Error('route budgets: the manifest has no HTML entry (index.html)');
  return key;
}

/** The JavaScript files of these manifest keys and of everything they import statically, each once. */
export function staticClosure(manifest, keys) {
  const files = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return [...files].filter((f) => f.endsWith('.js'));
}

/** Expands `@group` names (budgets.groups) in a list of manifest keys. */
function expand(list, groups, problems, where) {
  return list.flatMap((item) => {
    if (!item.startsWith('@')) return [item];
    const group = groups?.[item.slice(1)];
    if (!group) {
      problems.push(`${where}: no group "${item.slice(1)}" in the budgets file`);
      return [];
    }
    return group;
  });
}

/**
 * Each route's JavaScript before interaction against its budget.
 * @returns {{ rows: { path: string, bytes: number, budgetBytes: number, files: string[], over: boolean }[], problems: string[] }}
 *   `problems` lists what makes the check fail besides a route over budget (a listed module the build does not
 *   have, a lazily loaded module nobody classified).
 */
export function measureRoutes({ manifest, sizeOf, budgets }) {
  const problems = [];
  const entry = entryKey(manifest);
  const closure = (keys) => staticClosure(manifest, keys);

  const loadedSomewhere = new Set();
  const rows = Object.entries(budgets.routes).map(([path, route]) => {
    const load = expand(route.load ?? [], budgets.groups, problems, path);
    for (const key of load) {
      if (!manifest[key]) problems.push(`${path}: "${key}" is not in the build (renamed or removed? update apps/web/route-budgets.json)`);
      loadedSomewhere.add(key);
    }
    const files = closure([entry, ...load]);
    const bytes = files.reduce((sum, f) => sum + sizeOf(f), 0);
    const budgetBytes = route.budgetKb * KB;
    const goalBytes = (route.goalKb ?? route.budgetKb) * KB;
    return { path, bytes, budgetBytes, goalBytes, files, over: bytes > budgetBytes };
  });

  const later = new Set(budgets.afterInteraction ?? []);
  for (const key of later) if (!manifest[key]) problems.push(`afterInteraction: "${key}" is not in the build`);
  for (const key of manifest[entry].dynamicImports ?? []) {
    if (!loadedSomewhere.has(key) && !later.has(key)) {
      problems.push(
        `"${key}" is loaded lazily by the entry but neither a route's "load" nor "afterInteraction" names it: give its route a budget in apps/web/route-budgets.json (or list it under afterInteraction if it loads only after an interaction)`,
      );
    }
  }
  return { rows, problems };
}

/** The report the check prints: one line per route, then what failed. */
export function formatReport({ rows, problems }) {
  const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
  const width = Math.max(...rows.map((r) => r.path.length), 5);
  const lines = [`${'route'.padEnd(width)}  ${'JS before interaction'.padStart(22)}  ${'budget'.padStart(9)}`];
  for (const r of rows) {
    const goal = r.goalBytes < r.budgetBytes ? `  (goal ${kb(r.goalBytes)}${r.bytes <= r.goalBytes ? ', met: lower the budget' : ''})` : '';
    lines.push(`${r.path.padEnd(width)}  ${kb(r.bytes).padStart(22)}  ${kb(r.budgetBytes).padStart(9)}${r.over ? `  OVER by ${kb(r.bytes - r.budgetBytes)}` : ''}${goal}`);
  }
  for (const p of problems) lines.push(`✗ ${p}`);
  return lines.join('\n');
}
