import { texts } from '@giftlens/contract/texts';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Recogniser } from '../../adapters/recogniser.ts';
import { AppError } from '../../lib/errors.ts';
import { matchScan } from '../scans/scan-match.ts';

const EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp'];

/**
 * Where the demo gift `{demoId}` lives in the web app's public folder (built or source):
 * demo-media/{id}-gift.*, demo/{id}-gift.* or demo/{id}.* — e.g. "birthday" → demo-media/birthday-gift.jpg.
 */
export function findDemoImage(dirs: string[], demoId: string): string | null {
  for (const dir of dirs) {
    for (const name of [`demo-media/${demoId}-gift`, `demo/${demoId}-gift`, `demo/${demoId}`]) {
      for (const ext of EXTENSIONS) {
        const file = path.join(dir, `${name}.${ext}`);
        if (existsSync(file)) return file;
      }
    }
  }
  return null;
}

/** The demo: a visitor scans the demo gift shipped with the web app; no gift, grant or message involved. */
export function createDemoService({ recogniser, dirs }: { recogniser: Recogniser; dirs: string[] }) {
  // Each demo image is enrolled once, on first use, and kept.
  const references = new Map<string, Promise<Uint8Array>>();

  function referenceFor(demoId: string): Promise<Uint8Array> {
    const cached = references.get(demoId);
    if (cached) return cached;
    const file = findDemoImage(dirs, demoId);
    if (!file) throw new AppError(404, 'demo_not_found', texts.recipient.demoNotFound);
    const enrolled = readFile(file).then(async (image) => (await recogniser.enrol(image)).reference);
    references.set(demoId, enrolled);
    enrolled.catch(() => references.delete(demoId));
    return enrolled;
  }

  return {
    async scan(demoId: string, scan: Buffer): Promise<{ success: true; matched: boolean; score: number }> {
      const reference = await referenceFor(demoId);
      const decision = await matchScan(recogniser, scan, [[reference]]);
      return { success: true, matched: decision.matched, score: decision.score };
    },
  };
}

export type DemoService = ReturnType<typeof createDemoService>;
