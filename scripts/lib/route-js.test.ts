import { describe, expect, it } from 'vitest';
import { formatReport, KB, measureRoutes, type Manifest, type RouteBudgets } from './route-js.mjs';

/** A build in miniature: the entry, a shared chunk, two lazily loaded screens and a part loaded on a click. */
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_react.js'],
    dynamicImports: ['src/send.tsx', 'src/scan.tsx', 'src/prompt.tsx'],
  },
  '_react.js': { file: 'assets/react.js' },
  '_zod.js': { file: 'assets/zod.js' },
  'src/send.tsx': { file: 'assets/send.js', isDynamicEntry: true, imports: ['index.html', '_zod.js', '_react.js'] },
  'src/scan.tsx': { file: 'assets/scan.js', isDynamicEntry: true, imports: ['index.html', '_zod.js'] },
  'src/prompt.tsx': { file: 'assets/prompt.js', isDynamicEntry: true, imports: ['index.html'] },
};
const sizes: Record<string, number> = {
  'assets/index.js': 90 * KB,
  'assets/react.js': 10 * KB,
  'assets/zod.js': 20 * KB,
  'assets/send.js': 45 * KB,
  'assets/scan.js': 5 * KB,
  'assets/prompt.js': 30 * KB,
};
const sizeOf = (file: string) => sizes[file]!;

const budgets = (send: number): RouteBudgets => ({
  afterInteraction: ['src/prompt.tsx'],
  routes: {
    '/': { budgetKb: 110 },
    '/send': { budgetKb: send, load: ['src/send.tsx'] },
    '/scan': { budgetKb: 160, load: ['src/scan.tsx'] },
  },
});

describe('route JS budgets', () => {
  it('counts the entry, the route’s screen and their static imports, each chunk once, not what loads later', () => {
    const { rows, problems } = measureRoutes({ manifest, sizeOf, budgets: budgets(200) });
    expect(problems).toEqual([]);
    expect(rows.map((r) => [r.path, r.bytes / KB, r.over])).toEqual([
      ['/', 100, false],
      ['/send', 165, false],
      ['/scan', 125, false],
    ]);
  });

  it('fails a route over its budget, and says by how much', () => {
    const result = measureRoutes({ manifest, sizeOf, budgets: budgets(160) });
    expect(result.rows.find((r) => r.path === '/send')).toMatchObject({ over: true, bytes: 165 * KB, budgetBytes: 160 * KB });
    expect(result.rows.filter((r) => r.over).map((r) => r.path)).toEqual(['/send']);
    const report = formatReport(result);
    expect(report).toMatch(/\/send\s+165\.0 KB\s+160\.0 KB {2}OVER by 5\.0 KB/);
    expect(report).toMatch(/\/scan\s+125\.0 KB\s+160\.0 KB$/m);
  });

  it('fails a lazily loaded module that no route and no afterInteraction names (a new route without a budget)', () => {
    const { problems } = measureRoutes({ manifest, sizeOf, budgets: { ...budgets(200), afterInteraction: [] } });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('"src/prompt.tsx" is loaded lazily by the entry');
  });

  it('fails a budget that names a module the build does not have', () => {
    const stale = budgets(200);
    stale.routes['/gone'] = { budgetKb: 160, load: ['src/gone.tsx'] };
    expect(measureRoutes({ manifest, sizeOf, budgets: stale }).problems).toEqual([
      '/gone: "src/gone.tsx" is not in the build (renamed or removed? update apps/web/route-budgets.json)',
    ]);
  });

  it('shows a goal below the budget without failing on it', () => {
    const withGoal = budgets(170);
    withGoal.routes['/send'] = { budgetKb: 170, goalKb: 160, load: ['src/send.tsx'] };
    const result = measureRoutes({ manifest, sizeOf, budgets: withGoal });
    expect(result.rows.some((r) => r.over)).toBe(false);
    expect(formatReport(result)).toMatch(/\/send\s+165\.0 KB\s+170\.0 KB {2}\(goal 160\.0 KB\)/);
  });

  it('expands @groups in a route’s load', () => {
    const grouped: RouteBudgets = { ...budgets(200), groups: { shell: ['src/prompt.tsx'] }, afterInteraction: [] };
    grouped.routes['/scan'] = { budgetKb: 160, load: ['src/scan.tsx', '@shell'] };
    const { rows, problems } = measureRoutes({ manifest, sizeOf, budgets: grouped });
    expect(problems).toEqual([]);
    expect(rows.find((r) => r.path === '/scan')!.bytes).toBe(155 * KB);
  });
});
