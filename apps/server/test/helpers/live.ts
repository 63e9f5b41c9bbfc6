import { LIVE_SCAN } from '@giftlens/contract/constants';
import { API } from '@giftlens/contract/routes';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Harness } from './harness.ts';
import { scanBody } from './recipient.ts';

/**
 * One live frame of the direct flow from the client address `ip`, sent as the page does: the clock moves on by the
 * page's interval first, so a steady stream stays under the per-second rate.
 */
export function liveFrame(h: Harness, giftId: string, scan: Buffer, ip: string, opts: { wait?: boolean; session?: string } = {}) {
  if (opts.wait !== false) h.clock.advance(LIVE_SCAN.intervalMs);
  const body = scanBody(scan, { type: 'direct', ...(opts.session ? { scan_session: opts.session } : {}) });
  return h.app.inject({
    method: 'POST',
    url: API.liveFrameDirect(giftId),
    headers: body.headers,
    payload: body.payload,
    remoteAddress: ip,
  });
}

/** One live frame of the recipient flow (session cookie, recipient_id, and the page's scanning session if given). */
export function recipientLiveFrame(h: Harness, cookie: string, recipientId: string, scan: Buffer, ip: string, session?: string) {
  h.clock.advance(LIVE_SCAN.intervalMs);
  const body = scanBody(scan, { recipient_id: recipientId, ...(session ? { scan_session: session } : {}) });
  return h.app.inject({
    method: 'POST',
    url: API.liveFrame,
    headers: { ...body.headers, cookie },
    payload: body.payload,
    remoteAddress: ip,
  });
}

/** Every file under `dir` (recursively) with its size: what a request may have written to disk. */
export async function filesUnder(dir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const walk = async (d: string): Promise<void> => {
    for (const entry of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) await walk(full);
      else out.set(full, (await stat(full)).size);
    }
  };
  await walk(dir);
  return out;
}

/** The files under `dir` whose bytes contain `needle` anywhere. */
export async function filesContaining(dir: string, needle: Buffer): Promise<string[]> {
  const found: string[] = [];
  for (const file of (await filesUnder(dir)).keys()) if ((await readFile(file)).includes(needle)) found.push(file);
  return found;
}
