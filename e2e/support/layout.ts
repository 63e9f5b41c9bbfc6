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

/** The lines an element's text takes, each as the text on it (from the rendered boxes of its text nodes). */
export async function renderedLines(shown: Locator): Promise<string[]> {
  await expect(shown).toBeVisible();
  return shown.evaluate((el) => {
    const lines = new Map<number, string>();
    const range = document.createRange();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let i = 0; i < text.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getBoundingClientRect();
        if (rect.width === 0 && text[i] === ' ') continue;
        const top = Math.round(rect.top);
        lines.set(top, (lines.get(top) ?? '') + text[i]);
      }
    }
    return [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t.trim());
  });
}
