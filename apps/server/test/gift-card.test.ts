import type { MyGiftsResponse } from '@giftlens/contract/my-gifts';
import { expect } from 'vitest';
import { renderGiftCard } from '../src/modules/gift-card/gift-card.render.ts';
import { createGift, GIFT_FIELDS, paidGift, payGift, submitGift, uploadVideo } from './helpers/flows.ts';
import { pageCount, pdfText } from './helpers/pdf.ts';
import { describeEachDatabase, it, json, PUBLIC_ORIGIN, signIn, type Harness } from './helpers/harness.ts';

const card = (h: Harness, giftId: string, headers: Record<string, string>, lang?: string) =>
  h.app.inject({ method: 'GET', url: `/api/gift-sender/gifts/${giftId}/card.pdf${lang ? `?lang=${lang}` : ''}`, headers });

async function backupCodeOf(h: Harness, cookie: string, giftId: string) {
  const res = await h.app.inject({ method: 'GET', url: '/api/gift-sender/gifts', headers: { cookie } });
  const code = json<MyGiftsResponse>(res).gifts.find((g) => g.id === giftId)?.backupCode;
  if (!code) throw new Error('no backup code');
  return code;
}

describeEachDatabase('the printable card for the box', (get) => {
  it('is one A4 page whose text reads back: the name, the occasion, the steps, the link and the backup code', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await paidGift(h, cookie);
    const code = await backupCodeOf(h, cookie, giftId);
    const res = await card(h, giftId, { cookie }, 'en');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-disposition']).toBe('inline; filename="Card for Maya.pdf"');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const info = await pageCount(res.rawPayload);
    expect(info.pages).toBe(1);
    expect(info.size).toContain('(A4)');
    const text = await pdfText(res.rawPayload);
    const link = `${PUBLIC_ORIGIN}/sharelink/${giftId}`;
    // Both cards carry each part: the folded card and the credit-card size one.
    expect(text.split('For Maya').length - 1).toBe(2);
    expect(text).toContain('Birthday');
    expect(text).toContain('1. Open this link or type it');
    expect(text).toContain('2. Unwrap the gift and photograph it');
    expect(text).toContain('3. The message plays');
    expect(text.split(link).length - 1).toBe(2);
    expect(text).toContain(`${code.slice(0, 4)} ${code.slice(4)}`);
    // Without ?lang it is English too.
    expect(await pdfText((await card(h, giftId, { cookie })).rawPayload)).toContain('For Maya');
  });

  it('in Hindi: Devanagari read back in logical order, the name, digits and link unchanged', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const res0 = await submitGift(h, cookie, { ...GIFT_FIELDS, recipientName: 'प्रिया Sharma', occasion: 'raksha-bandhan' });
    const giftId = json<{ giftId: string }>(res0).giftId;
    await uploadVideo(h, cookie, giftId);
    await payGift(h, cookie, giftId);
    const code = await backupCodeOf(h, cookie, giftId);
    const res = await card(h, giftId, { cookie }, 'hi');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `inline; filename="Card for ______ Sharma.pdf"; filename*=UTF-8''Card%20for%20${encodeURIComponent('प्रिया')}%20Sharma.pdf`,
    );
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('प्रिया Sharma के लिए');
    expect(text).toContain('रक्षाबंधन');
    expect(text).toContain('1. यह लिंक खोलें या टाइप करें');
    expect(text).toContain('2. तोहफ़ा खोलें और उसकी फ़ोटो लें');
    expect(text).toContain('3. संदेश चलने लगेगा');
    expect(text).toContain(`${PUBLIC_ORIGIN}/sharelink/${giftId}`);
    expect(text).toContain(`बैकअप कोड: ${code.slice(0, 4)} ${code.slice(4)}`);
    expect(text).not.toContain('For ');
  });

  it('is the sender’s own: another sender gets 404, no session 401, an unknown language 400, a draft 409', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await paidGift(h, cookie);
    const other = await signIn(h);
    expect((await card(h, giftId, { cookie: other.cookie }, 'en')).statusCode).toBe(404);
    expect((await card(h, giftId, {}, 'en')).statusCode).toBe(401);
    expect((await card(h, giftId, { cookie }, 'fr')).statusCode).toBe(400);
    const draft = await createGift(h, cookie);
    const res = await card(h, draft, { cookie }, 'en');
    expect(res.statusCode).toBe(409);
    expect(json(res)).toMatchObject({ code: 'gift_not_paid' });
  });
});

it('renderGiftCard takes plain data: no code line without a code, any occasion text as it is', async () => {
  const pdf = await renderGiftCard({ lang: 'en', recipientName: 'Ravi', occasion: 'Diwali sale', link: 'https://shop.example/g/ABCD', backupCode: null });
  const text = await pdfText(pdf);
  expect(text).toContain('For Ravi');
  expect(text).toContain('Diwali sale');
  expect(text).toContain('https://shop.example/g/ABCD');
  expect(text).not.toContain('Backup code');
});

it('the Devanagari face shapes: a conjunct is one glyph, the i-matra is drawn before its consonant cluster', async () => {
  const { cardFaces } = await import('../src/lib/shipped-fonts.ts');
  const fontkit = await import('fontkit');
  const face = cardFaces(400).find((f) => f.name.startsWith('noto-sans-devanagari'))!;
  const font = fontkit.create(face.data) as import('fontkit').Font;
  expect(font.layout('क्ष').glyphs).toHaveLength(1); // KA + VIRAMA + SSA → the KSSA ligature
  const priya = font.layout('प्रि').glyphs.map((g) => g.codePoints);
  expect(priya[0]).toEqual([0x093f]); // the i-matra comes first, before PA+RA
  expect(priya).toHaveLength(2);
});
