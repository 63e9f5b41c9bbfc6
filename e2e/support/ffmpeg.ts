import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { ARTIFACTS_DIR } from './paths.ts';

/**
 * A test file made with ffmpeg once (kept in e2e/.artifacts/{folder} across runs): written under a name of this
 * process beside its final name, then renamed, so two workers asking at once never read a half-written file.
 * `args` are ffmpeg's inputs and options; the output is appended.
 */
export function madeByFfmpeg(folder: string, name: string, args: string[]): string {
  const out = join(ARTIFACTS_DIR, folder, name);
  if (existsSync(out)) return out;
  mkdirSync(dirname(out), { recursive: true });
  const ext = extname(name);
  const tmp = `${out.slice(0, out.length - ext.length)}.${process.pid}.part${ext}`;
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...args, tmp]);
  renameSync(tmp, out);
  return out;
}
