import { execFileSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * An `ffprobe` in `binDir` (put first on the server's PATH) that runs the real one, except for a render's check of
 * its output (`giftlens-render-*` scratch folder, `out.*`) while `gate/armed` exists: that one first writes
 * `gate/waiting` and waits until `gate/open` exists. So a test can stop a render right before it stores its
 * rendition, and let it go on; renders of the other tests pass straight through.
 */
export async function gatedFfprobe(binDir: string, gate: string): Promise<void> {
  const real = execFileSync('sh', ['-c', 'command -v ffprobe']).toString().trim();
  await mkdir(binDir, { recursive: true });
  await mkdir(gate, { recursive: true });
  const shim = path.join(binDir, 'ffprobe');
  await writeFile(
    shim,
    `#!/bin/sh
for arg in "$@"; do
  case "$arg" in
    */giftlens-render-*/out.*)
      [ -e '${gate}/armed' ] || continue
      : > '${gate}/waiting'
      while [ ! -e '${gate}/open' ]; do sleep 0.05; done ;;
  esac
done
exec '${real}' "$@"
`,
  );
  await chmod(shim, 0o755);
}

