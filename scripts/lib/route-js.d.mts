export const KB: number;
export function gzipSize(file: string): number;

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface RouteBudgets {
  /** Named lists of manifest keys, used in a route's `load` as `@name`. */
  groups?: Record<string, string[]>;
  /** Lazily loaded modules of the entry that load only after an interaction (or on the browser's offer). */
  afterInteraction?: string[];
  /** Route pattern → its budget (KB of gzip -9 JavaScript) and the manifest keys it loads beyond the entry. */
  routes: Record<string, { budgetKb: number; goalKb?: number; load?: string[] }>;
}

export interface RouteRow {
  path: string;
  bytes: number;
  budgetBytes: number;
  goalBytes: number;
  files: string[];
  over: boolean;
}

/** The JavaScript files of these manifest keys and of everything they import statically, each once. */
export function staticClosure(manifest: Manifest, keys: string[]): string[];
export function readBuild(dist: string): { manifest: Manifest; sizeOf: (file: string) => number };
export function measureRoutes(input: {
  manifest: Manifest;
  sizeOf: (file: string) => number;
  budgets: RouteBudgets;
}): { rows: RouteRow[]; problems: string[] };
export function formatReport(result: { rows: RouteRow[]; problems: string[] }): string;
