import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFfmpegProcessor, findMediaTools } from '../src/adapters/media-processor.ts';
import { MP4_FORMAT } from '../src/adapters/media-formats.ts';
import { tinyMp4 } from './helpers/media.ts';

// Issue 37, item 10: npm runs scripts with every parent folder's node_modules/.bin first on the PATH; a package's
// executable named ffmpeg there must never be what a render runs. The tools are found once, as absolute paths.
describe('media tools are found once, as absolute paths, never in node_modules/.bin', () => {
  let dir: string;
  let marker: string;
  let planted: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'giftlens-tools-'));
    planted = path.join(dir, 'node_modules', '.bin');
    marker = path.join(dir, 'ran');
    await mkdir(planted, { recursive: true });
    for (const tool of ['ffmpeg', 'ffprobe', 'setpriv', 'prlimit']) {
      const file = path.join(planted, tool);
      await writeFile(file, `#!/bin/sh\necho ${tool} >> '${marker}'\necho '${tool} version planted'\n`);
      await chmod(file, 0o755);
    }
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('skips node_modules/.bin folders and relative entries on the PATH', () => {
    const tools = findMediaTools([planted, 'relative/bin', process.env.PATH].join(path.delimiter));
    for (const [tool, found] of Object.entries(tools) as [string, string | null][]) {
      expect(found, tool).not.toBeNull();
      expect(path.isAbsolute(found ?? ''), tool).toBe(true);
      expect(found, tool).not.toContain('node_modules');
    }
    expect(findMediaTools(planted)).toEqual({ ffmpeg: null, ffprobe: null, setpriv: null, prlimit: null });
  });

  it('a processor made under such a PATH runs the real ffprobe and ffmpeg, never the planted ones', async () => {
    const file = path.join(dir, 'message.mp4');
    await writeFile(file, tinyMp4());
    const before = process.env.PATH;
    process.env.PATH = [planted, before].join(path.delimiter);
    try {
      const processor = await createFfmpegProcessor();
      expect(processor).not.toBeNull();
      const probed = await processor!.probe(file, MP4_FORMAT);
      expect(probed.format).toContain('mp4');
      expect(probed.durationSeconds).toBeGreaterThan(0);
    } finally {
      process.env.PATH = before;
    }
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
  });
});
