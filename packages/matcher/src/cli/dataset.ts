import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface Pair {
  reference: string;
  query: string;
  /** true = genuine, false = impostor, undefined = unlabelled */
  label: boolean | undefined;
  kind: string;
  referencePath: string;
  queryPath: string;
}

/** Reads a `reference,query[,label[,kind]]` CSV; paths are relative to the CSV's folder. */
export function readPairs(csvArg: string): Pair[] {
  // npm run -w changes the working directory to the workspace; resolve against where the user typed the command
  const csvPath = resolve(process.env.INIT_CWD ?? process.cwd(), csvArg);
  const base = dirname(csvPath);
  const lines = readFileSync(csvPath, 'utf8').split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = (lines.shift() ?? '').split(',').map((h) => h.trim());
  const col = (name: string): number => header.indexOf(name);
  const [ir, iq, il, ik] = [col('reference'), col('query'), col('label'), col('kind')];
  if (ir < 0 || iq < 0) throw new Error(`${csvPath}: expected the columns reference,query`);
  return lines.map((line) => {
    const f = line.split(',').map((v) => v.trim());
    const reference = f[ir]!;
    const query = f[iq]!;
    const l = il >= 0 ? f[il] : undefined;
    return {
      reference,
      query,
      label: l === '1' ? true : l === '0' ? false : undefined,
      kind: (ik >= 0 ? f[ik] : undefined) || 'all',
      referencePath: resolve(base, reference),
      queryPath: resolve(base, query),
    };
  });
}

export function argValue(name: string, fallback?: string): string | undefined {
  const a = process.argv;
  const i = a.indexOf(name);
  if (i >= 0 && i + 1 < a.length) return a[i + 1];
  const eq = a.find((x) => x.startsWith(`${name}=`));
  return eq ? eq.slice(name.length + 1) : fallback;
}
