import { texts } from '@giftlens/contract/texts';
import { ScheduleResponse } from '@giftlens/contract/scheduling';
import { expect } from 'vitest';
import { createGift, paidGift } from './helpers/flows.ts';
import { describeEachDatabase, it, json, signIn, type Harness } from './helpers/harness.ts';

const schedule = (h: Harness, cookie: string | null, payload: Record<string, unknown>) =>
  h.app.inject({
    method: 'POST',
    url: '/api/scheduled-messages',
    headers: cookie ? { cookie } : {},
    payload,
  });

describeEachDatabase('scheduled messages', (get) => {
  it('stores a pending job at the UTC instant with the sender time zone', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await paidGift(h, cookie);
    // 2026-11-21T16:30 in Kolkata (+05:30) is 11:00 UTC, one hour after the test clock.
    const res = await schedule(h, cookie, {
      giftId,
      recipientContact: ' Maya@Example.com ',
      contactType: 'email',
      scheduledDatetime: '2026-11-21T16:30:00+05:30',
      timezone: 'Asia/Kolkata',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = ScheduleResponse.parse(json(res));
    expect(body.scheduledDatetime).toBe('2026-11-21T11:00:00.000Z');
    const row = await h.db.selectFrom('scheduled_messages').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      gift_id: giftId,
      contact_type: 'email',
      recipient_contact: 'maya@example.com',
      scheduled_at: '2026-11-21T11:00:00.000Z',
      timezone: 'Asia/Kolkata',
      status: 'pending',
      attempts: 0,
      sent_at: null,
    });
  });

  it('answers each rule with the spec text and stores nothing', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await paidGift(h, cookie);
    const base = {
      giftId,
      recipientContact: 'maya@example.com',
      contactType: 'email',
      scheduledDatetime: '2026-11-21T12:00:00.000Z',
      timezone: 'Europe/London',
    };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...base, scheduledDatetime: '2026-11-21T09:59:00.000Z' }, 400, texts.sender.scheduleFuture],
      [{ ...base, scheduledDatetime: '2026-11-21T10:00:00.000Z' }, 400, texts.sender.scheduleFuture],
      [{ ...base, scheduledDatetime: '' }, 400, texts.sender.scheduleDateTimeRequired],
      [{ ...base, scheduledDatetime: undefined }, 400, texts.sender.scheduleDateTimeRequired],
      [{ ...base, recipientContact: '  ' }, 400, texts.sender.scheduleContactRequired],
      [{ ...base, recipientContact: undefined }, 400, texts.sender.scheduleContactRequired],
      [{ ...base, recipientContact: 'not-an-email' }, 400, texts.sender.invalidEmail],
      [{ ...base, contactType: 'whatsapp', recipientContact: '+919876543210' }, 400, texts.sender.whatsappUnavailable],
      [{ ...base, timezone: 'Mars/Olympus_Mons' }, 400, texts.sender.timezoneInvalid],
    ];
    for (const [payload, status, message] of cases) {
      const res = await schedule(h, cookie, payload);
      expect(res.statusCode, message).toBe(status);
      expect(json(res)).toMatchObject({ success: false, error: message });
    }
    expect(await h.db.selectFrom('scheduled_messages').select('id').where('gift_id', '=', giftId).execute()).toHaveLength(0);
  });

  it('needs a session, the own gift, and a paid gift', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const giftId = await paidGift(h, cookie);
    const payload = {
      giftId,
      recipientContact: 'maya@example.com',
      contactType: 'email',
      scheduledDatetime: '2026-11-22T10:00:00.000Z',
      timezone: 'America/New_York',
    };
    expect((await schedule(h, null, payload)).statusCode).toBe(401);
    const stranger = await signIn(h);
    const foreign = await schedule(h, stranger.cookie, payload);
    expect(foreign.statusCode).toBe(404);
    expect(json(foreign).error).toBe(texts.sender.giftNotFound);
    const unpaidId = await createGift(h, cookie);
    const unpaid = await schedule(h, cookie, { ...payload, giftId: unpaidId });
    expect(unpaid.statusCode).toBe(409);
    expect(json(unpaid).error).toBe(texts.sender.scheduleGiftNotPaid);
    const rows = await h.db.selectFrom('scheduled_messages').select('id').where('gift_id', 'in', [giftId, unpaidId]).execute();
    expect(rows).toHaveLength(0);
  });
});
