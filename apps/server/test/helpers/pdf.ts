import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What one of poppler's tools (pdftotext, pdfinfo) prints of a PDF, from a scratch folder of this call's own. */
async function poppler(tool: string, args: string[], pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'giftlens-card-'));
  try {
    const file = path.join(dir, 'card.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run(tool, [...args, file, ...(tool === 'pdftotext' ? ['-'] : [])]);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A PDF's text as poppler's pdftotext reads it (what a person selecting the text would copy). */
export const pdfText = (pdf: Buffer): Promise<string> => poppler('pdftotext', ['-enc', 'UTF-8'], pdf);

/** A PDF's page count and page size, as pdfinfo reads them. */
export async function pageCount(pdf: Buffer): Promise<{ pages: number; size: string }> {
  const info = await poppler('pdfinfo', [], pdf);
  return { pages: Number(/Pages:\s+(\d+)/.exec(info)?.[1]), size: /Page size:\s+(.+)/.exec(info)?.[1] ?? '' };
}
