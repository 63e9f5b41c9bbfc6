import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RUNTIME_FILE, type E2ERuntime } from './paths.ts';

/**
 * Every file the server's local media storage (DATA_DIR/media) keeps for a gift: its photos, message, renditions,
 * posters and reaction. Read only, and only to prove that deleting a gift leaves nothing behind, including files
 * the API never hands out a URL for (an original beside its rendition). Data is made through the API, never here.
 */
export function storedFilesOf(giftId: string): string[] {
  const { dataDir } = JSON.parse(readFileSync(RUNTIME_FILE, 'utf8')) as E2ERuntime;
  const walk = (dir: string): string[] =>
    existsSync(dir)
      ? readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        })
      : [];
  return [...walk(join(dataDir, 'media', 'gifts', giftId)), ...walk(join(dataDir, 'media', 'reactions', giftId))];
}
