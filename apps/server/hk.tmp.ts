import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { systemClock } from './src/adapters/clock.ts';
import { createLocalMediaStorage } from './src/adapters/media-storage.ts';
import { createDatabase } from './src/db/database.ts';
import { createHousekeepingService } from './src/modules/housekeeping/housekeeping.service.ts';
const db = await createDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:5432/giftlens_growth_big_4586' });
const media = createLocalMediaStorage(mkdtempSync(path.join(tmpdir(), 'hk-')), 'x'.repeat(32));
const hk = createHousekeepingService({ db, media, clock: systemClock, log: { info: () => {}, warn: () => {}, error: () => {} } });
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  const r = await hk.run();
  const { left, ...counts } = r as any;
  console.log(`run ${i}: ${(performance.now() - t).toFixed(0)} ms`, JSON.stringify(Object.fromEntries(Object.entries(counts).filter(([, v]) => v))), 'left', JSON.stringify(left));
}
await db.destroy();
