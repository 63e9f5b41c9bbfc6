import { GiftMessageResponse } from '@giftlens/contract/recipient';
import { beforeAll, expect } from 'vitest';
import { describeEachDatabase, it, json, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import { activeGift, directScan, revealCookie, scanPhotos } from './helpers/recipient.ts';

let photos: Awaited<ReturnType<typeof scanPhotos>>;
beforeAll(async () => {
  photos = await scanPhotos();
});

/** A gift from a sender called `firstName`, revealed by a matching scan: its message page as the recipient gets it. */
async function revealedMessage(h: Harness, firstName: string, planId: string) {
  const { cookie } = await signIn(h, uniqueEmail('sender'), firstName);
  const giftId = await activeGift(h, cookie, { planId, photo: photos.reference, recipientEmail: uniqueEmail('maya') });
  const scan = await directScan(h, giftId, photos.genuine);
  expect(scan.statusCode, scan.body).toBe(200);
  const grant = revealCookie(scan, giftId);
  const res = await h.app.inject({ method: 'GET', url: `/api/verification-recipient/gift-message/${giftId}`, headers: { cookie: grant! } });
  expect(res.statusCode, res.body).toBe(200);
  return GiftMessageResponse.parse(json(res));
}

describeEachDatabase('the recipient’s keepsake', (get) => {
  it('a plan with downloads: the message saves as "Message from Priya.mp4", with the plan’s end', async () => {
    const h = get();
    const message = await revealedMessage(h, 'Priya', 'premium_us');
    expect(message.validUntil).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(message.messageDownloadUrl).toMatch(/^\/media\/.+&download=1&name=Message%20from%20Priya$/);
    const file = await h.app.inject({ method: 'GET', url: message.messageDownloadUrl! });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe('attachment; filename="Message from Priya.mp4"');
    // The viewing link stays a viewing link.
    expect((await h.app.inject({ method: 'GET', url: message.messageUrl! })).headers['content-disposition']).toBeUndefined();
  });

  it('a name in another script: an ASCII stand-in in filename, the exact name in filename* (RFC 6266)', async () => {
    const h = get();
    const message = await revealedMessage(h, 'प्रिया', 'premium_us');
    const file = await h.app.inject({ method: 'GET', url: message.messageDownloadUrl! });
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="Message from ______.mp4"; filename*=UTF-8''Message%20from%20${encodeURIComponent('प्रिया')}.mp4`,
    );
  });

  it('a plan without downloads (Basic): no keepsake', async () => {
    const h = get();
    const message = await revealedMessage(h, 'Priya', 'basic_in');
    expect(message.messageDownloadUrl).toBeNull();
  });
});
