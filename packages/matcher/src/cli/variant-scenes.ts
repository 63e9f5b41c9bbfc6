/**
 * The hard-case scenes the variant tools (zoomvariants, tiltvariants) compare settings on: the generator of
 * `npm run -s phonecases` on other seeds (2900 + the cell's number), from every `step`-th cover and every 2nd object,
 * each scene with its own reference first and then `impostors` others (never the gift in the background photo, nor
 * a cover its source photo also shows).
 */
import type { CV } from '../cv.ts';
import type { Pair } from './dataset.ts';
import { giftIndex, giftOf, showsBoth } from './evidence.ts';
import { context, PHONE_CONDITIONS, phoneCase, STRENGTHS, type PhoneCase } from './hardcase-gen.ts';

export interface VariantScene {
  condition: string;
  strength: string;
  gift: string;
  kind: string | undefined;
  hc: PhoneCase;
  /** reference paths: the scene's own first, then the impostors */
  against: string[];
}

export async function* variantScenes(cv: CV, pairs: Pair[], o: { step: number; impostors: number; only?: string[] }): AsyncGenerator<VariantScene> {
  const { refPaths, kindOf, refOf, photosOf, gifts, backgrounds } = giftIndex(pairs);
  let cell = -1;
  for (const condition of PHONE_CONDITIONS) {
    for (const strength of STRENGTHS) {
      cell++;
      if (o.only && !o.only.includes(condition)) continue;
      const ctx = context(cv, 2900 + cell, backgrounds);
      for (const [gi, gift] of gifts.entries()) {
        if (gift.startsWith('cover:') && gi % o.step !== 0) continue;
        if (gift.startsWith('object:') && gi % 2 !== 0) continue;
        const sources = [refOf.get(gift)!, ...(photosOf.get(gift) ?? []).sort()];
        const source = sources[(gi + cell) % sources.length]!;
        const hc = await phoneCase(ctx, { path: source, gift, reference: refOf.get(gift)! }, condition, strength);
        const others = refPaths.filter((r) => giftOf(r) !== gift && giftOf(r) !== hc.backgroundGift);
        const n = o.impostors;
        // drawn as before; a cover the source photo also shows (SHOWS_BOTH) is no impostor and is left out
        const drawn = Array.from({ length: n }, (_, k) => others[(gi * 7 + cell * 5 + k * Math.floor(others.length / n)) % others.length]!);
        const against = [refOf.get(gift)!, ...drawn.filter((r) => !showsBoth(source, giftOf(r)))];
        yield { condition, strength, gift, kind: kindOf.get(gift), hc, against };
      }
      console.error(`${condition} ${strength} done`);
    }
  }
}
