/** The compiled server's folder (apps/server/dist). */
export const SERVER_DIST: string;

/** Whether the server build is missing or older than its sources. */
export function serverBuildIsStale(): boolean;

/** Builds the server into apps/server/dist (or `outdir`); resolves to the milliseconds it took. */
export function buildServer(opts?: { outdir?: string }): Promise<number>;

/** Builds when the build is missing or older than its sources; says which through `log`; true when it built. */
export function buildServerIfStale(opts?: { log?: (line: string) => void }): Promise<boolean>;
