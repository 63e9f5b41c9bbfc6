import { MyGiftsResponse, RemindersResponse } from '@giftlens/contract/my-gifts';
import { spacedBackupCode } from '@giftlens/contract/texts';
import { beforeAll, expect } from 'vitest';
import { describeEachDatabase, it, json, PUBLIC_ORIGIN, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import { noticeListeners } from './helpers/notice-listeners.ts';
import { activeGift, directScan, scanPhotos } from './helpers/recipient.ts';

const { smtp, harness } = await noticeListeners();

let photos: Awaited<ReturnType<typeof scanPhotos>>;
beforeAll(async () => {
  photos = await scanPhotos();
});

const HOUR = 3_600_000;
const NOT_OPENED = 'Maya has not opened your gift yet';
const ONE_DAY_LEFT = 'Your gift message from Asha is waiting: one day left';
const mailsTo = (address: string, subject: string) =>
  smtp.received.filter((m) => m.to && !Array.isArray(m.to) && m.to.text === address && m.subject === subject);

/** A sender (Asha) with a paid Premium gift (30 days) for Maya, whose address is known; the confirmation sent. */
async function paidForMaya(h: Harness) {
  const { cookie, email } = await signIn(h, uniqueEmail('sender'), 'Asha');
  const recipientEmail = uniqueEmail('maya');
  const giftId = await activeGift(h, cookie, { photo: photos.reference, recipientName: 'Maya', recipientEmail });
  await h.jobs.runDue();
  const res = await h.app.inject({ method: 'GET', url: '/api/gift-sender/gifts', headers: { cookie } });
  const gift = MyGiftsResponse.parse(json(res)).gifts.find((g) => g.id === giftId)!;
  return { cookie, email, recipientEmail: recipientEmail.toLowerCase(), giftId, backupCode: gift.backupCode!, remindersEnabled: gift.remindersEnabled };
}

/** Moves the test clock to `ms` after `from` and runs every job due then. */
async function at(h: Harness, from: number, ms: number) {
  h.clock.set(new Date(from + ms));
  await h.jobs.runDue();
}

const setReminders = (h: Harness, cookie: string | null, giftId: string, body: unknown) =>
  h.app.inject({ method: 'PUT', url: `/api/gift-sender/gifts/${giftId}/reminders`, headers: cookie ? { cookie } : {}, payload: body as object });

describeEachDatabase(
  'reminders',
  (get) => {
    it('an unopened gift: the sender once after 48 hours (code, link, send again), the recipient once a day before the end', async () => {
      const h = get();
      const paidAt = h.clock.now().getTime();
      const { email, recipientEmail, giftId, backupCode, remindersEnabled } = await paidForMaya(h);
      expect(remindersEnabled).toBe(true);
      await at(h, paidAt, 47 * HOUR);
      expect(mailsTo(email, NOT_OPENED)).toHaveLength(0);
      await at(h, paidAt, 48 * HOUR + 1000);
      const [mail] = mailsTo(email, NOT_OPENED);
      expect(mail?.text).toContain(spacedBackupCode(backupCode));
      expect(mail?.text).toContain(`${PUBLIC_ORIGIN}/sharelink/${giftId}`);
      expect(mail?.text).toContain(`Send the link again: ${PUBLIC_ORIGIN}/share/${giftId}`);

      await at(h, paidAt, 28 * 24 * HOUR);
      expect(mailsTo(recipientEmail, ONE_DAY_LEFT)).toHaveLength(0);
      await at(h, paidAt, 29 * 24 * HOUR + 1000);
      const [reminder] = mailsTo(recipientEmail, ONE_DAY_LEFT);
      expect(reminder?.text).toContain(`${PUBLIC_ORIGIN}/sharelink/${giftId}`);
      // Exactly once each.
      await at(h, paidAt, 29 * 24 * HOUR + 2 * HOUR);
      expect(mailsTo(email, NOT_OPENED)).toHaveLength(1);
      expect(mailsTo(recipientEmail, ONE_DAY_LEFT)).toHaveLength(1);
      const jobs = await h.db.selectFrom('jobs').select(['key', 'status']).where('gift_id', '=', giftId).where('key', 'like', 'reminder:%').orderBy('key').execute();
      expect(jobs).toEqual([
        { key: `reminder:recipient:${giftId}`, status: 'done' },
        { key: `reminder:sender:${giftId}`, status: 'done' },
      ]);
    });

    it('none for a gift that was opened, refunded, taken down, or whose reminders the sender turned off', async () => {
      const h = get();
      const paidAt = h.clock.now().getTime();
      const opened = await paidForMaya(h);
      expect((await directScan(h, opened.giftId, photos.genuine)).statusCode).toBe(200);
      const refunded = await paidForMaya(h);
      const takenDown = await paidForMaya(h);
      const off = await paidForMaya(h);
      await h.db.updateTable('gifts').set({ refunded_at: new Date(paidAt + HOUR).toISOString() }).where('id', '=', refunded.giftId).execute();
      await h.db.updateTable('gifts').set({ taken_down_at: new Date(paidAt + HOUR).toISOString() }).where('id', '=', takenDown.giftId).execute();
      const turnedOff = await setReminders(h, off.cookie, off.giftId, { enabled: false });
      expect(turnedOff.statusCode, turnedOff.body).toBe(200);
      expect(RemindersResponse.parse(json(turnedOff))).toEqual({ success: true, giftId: off.giftId, remindersEnabled: false });
      const list = await h.app.inject({ method: 'GET', url: '/api/gift-sender/gifts', headers: { cookie: off.cookie } });
      expect(MyGiftsResponse.parse(json(list)).gifts[0]?.remindersEnabled).toBe(false);

      await at(h, paidAt, 48 * HOUR + 1000);
      await at(h, paidAt, 29 * 24 * HOUR + 1000);
      for (const g of [opened, refunded, takenDown, off]) {
        expect(mailsTo(g.email, NOT_OPENED), g.giftId).toHaveLength(0);
        expect(mailsTo(g.recipientEmail, ONE_DAY_LEFT), g.giftId).toHaveLength(0);
      }
    });

    it('a delivery later than the payment moves the sender’s reminder to 48 hours after it; on again, it goes', async () => {
      const h = get();
      const paidAt = h.clock.now().getTime();
      const { cookie, email, recipientEmail, giftId } = await paidForMaya(h);
      const scheduled = await h.app.inject({
        method: 'POST',
        url: '/api/scheduled-messages',
        headers: { cookie },
        payload: { giftId, recipientContact: recipientEmail, contactType: 'email', scheduledDatetime: new Date(paidAt + 72 * HOUR).toISOString(), timezone: 'UTC' },
      });
      expect(scheduled.statusCode, scheduled.body).toBe(200);
      expect((await setReminders(h, cookie, giftId, { enabled: false })).statusCode).toBe(200);
      expect((await setReminders(h, cookie, giftId, { enabled: true })).statusCode).toBe(200);
      await at(h, paidAt, 49 * HOUR);
      expect(mailsTo(email, NOT_OPENED)).toHaveLength(0);
      await at(h, paidAt, 72 * HOUR + 1000); // the delivery goes out
      await at(h, paidAt, 119 * HOUR);
      expect(mailsTo(email, NOT_OPENED)).toHaveLength(0);
      await at(h, paidAt, 120 * HOUR + 2000);
      expect(mailsTo(email, NOT_OPENED)).toHaveLength(1);
    });

    it('the switch is the sender’s own: 401 without a session, 404 for another sender, 400 for a bad body', async () => {
      const h = get();
      const { cookie, giftId } = await paidForMaya(h);
      expect((await setReminders(h, null, giftId, { enabled: false })).statusCode).toBe(401);
      expect((await setReminders(h, (await signIn(h)).cookie, giftId, { enabled: false })).statusCode).toBe(404);
      expect((await setReminders(h, cookie, giftId, { enabled: 'no' })).statusCode).toBe(400);
      expect((await setReminders(h, cookie, giftId, {})).statusCode).toBe(400);
    });
  },
  harness,
);
