import { expect, type Locator } from '@playwright/test';

/**
 * An e-mail address shown by EmailAddress wraps only between its parts (after the "@", before a dot): each text
 * piece sits on one line, while the address as a whole takes more than one.
 */
export async function expectWrapsBetweenParts(shown: Locator): Promise<void> {
  await expect(shown).toBeVisible();
  const lines = await shown.evaluate((el) => {
    const range = document.createRange();
    const pieces: { text: string; lines: number }[] = [];
    const tops = new Set<number>();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent) continue;
      range.selectNodeContents(node);
      const rects = Array.from(range.getClientRects());
      rects.forEach((r) => tops.add(Math.round(r.top)));
      pieces.push({ text: node.textContent, lines: new Set(rects.map((r) => Math.round(r.top))).size });
    }
    return { pieces, total: tops.size };
  });
  expect(lines.total, 'the address takes more than one line').toBeGreaterThan(1);
  expect(lines.pieces.filter((p) => p.lines > 1), 'pieces broken across lines').toEqual([]);
}
