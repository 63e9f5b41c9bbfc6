/** Where the scaled-out run's round-robin proxy (scaled-setup.ts) tells the tests how many requests each API node answered. */
export const PROXY_STATS_PATH = '/__scaled-out/stats';

export interface ProxyStats {
  byNode: number[];
}

export async function proxyStats(baseURL: string): Promise<ProxyStats> {
  const res = await fetch(new URL(PROXY_STATS_PATH, baseURL));
  if (!res.ok) throw new Error(`The round-robin proxy answered ${res.status}: is this the scaled-out run?`);
  return (await res.json()) as ProxyStats;
}
