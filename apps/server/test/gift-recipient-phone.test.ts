import { texts } from '@giftlens/contract/texts';
import { readdir } from 'node:fs/promises';
import { expect } from 'vitest';
import { GIFT_FIELDS, submitGift } from './helpers/flows.ts';
import { describeEachDatabase, it, json, signIn, type Harness } from './helpers/harness.ts';

// The recipient's phone number on submit-gift (the sender specification's phone rules): India 10 digits starting 6–9, US 10 digits;
// "+" numbers pass through (as E.164); long numbers use their last 10 digits; stored as "+{code}{digits}".

const IN_BY_PHONE = { recipientName: 'Maya', occasion: 'birthday', planId: 'premium_in' };
const US_BY_PHONE = { ...IN_BY_PHONE, planId: 'premium_us' };

async function storedGifts(h: Harness, senderEmail: string) {
  return h.db
    .selectFrom('gifts')
    .innerJoin('senders', 'senders.id', 'gifts.sender_id')
    .select(['gifts.recipient_phone', 'gifts.recipient_email'])
    .where('senders.email', '=', senderEmail)
    .execute();
}

async function mediaFiles(h: Harness) {
  const entries = await readdir(h.mediaDir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && !e.name.includes('.tmp')).length;
}

describeEachDatabase('the recipient phone on submit-gift', (get) => {
  it('refuses each bad number with the spec text, and stores nothing', async () => {
    const h = get();
    const { cookie, email } = await signIn(h);
    const before = await mediaFiles(h);
    const cases: [Record<string, string>, string, string][] = [
      // The tester's cases.
      [{ ...IN_BY_PHONE, recipientPhone: '12345' }, texts.sender.indianPhoneLength, 'recipient_phone_invalid'],
      [{ ...IN_BY_PHONE, recipientPhone: 'hello world' }, texts.sender.indianPhoneLength, 'recipient_phone_invalid'],
      // Over the multipart field limit (10,000): refused, not cut, with the number's own complaint.
      [{ ...IN_BY_PHONE, recipientPhone: 'x'.repeat(200_000) }, texts.sender.indianPhoneLength, 'field_too_long'],
      [{ ...IN_BY_PHONE, recipientPhone: '9'.repeat(200_000) }, texts.sender.indianPhoneLength, 'field_too_long'],
      // India: 10 digits starting 6, 7, 8 or 9.
      [{ ...IN_BY_PHONE, recipientPhone: '5876543210' }, texts.sender.indianPhoneStart, 'recipient_phone_invalid'],
      [{ ...IN_BY_PHONE, recipientPhone: '98765 4321' }, texts.sender.indianPhoneLength, 'recipient_phone_invalid'],
      [{ ...IN_BY_PHONE, recipientPhone: '98765abc43210' }, texts.sender.indianPhoneLength, 'recipient_phone_invalid'],
      // More digits than any phone number has (E.164: 15): not read as its last 10.
      [{ ...IN_BY_PHONE, recipientPhone: '1234567 9876543210' }, texts.sender.indianPhoneLength, 'recipient_phone_invalid'],
      [{ ...IN_BY_PHONE, planId: 'basic_in', recipientPhone: '0091 58765 43210' }, texts.sender.indianPhoneStart, 'recipient_phone_invalid'],
      // US: 10 digits.
      [{ ...US_BY_PHONE, recipientPhone: '555-0132' }, texts.sender.usPhoneLength, 'recipient_phone_invalid'],
      [{ ...US_BY_PHONE, recipientPhone: 'hello world' }, texts.sender.usPhoneLength, 'recipient_phone_invalid'],
      [{ ...US_BY_PHONE, planId: 'lifetime_us', recipientPhone: '12345' }, texts.sender.usPhoneLength, 'recipient_phone_invalid'],
      // "+" numbers pass through, but must be a number with its country code.
      [{ ...IN_BY_PHONE, recipientPhone: '+hello' }, texts.sender.internationalPhoneInvalid, 'recipient_phone_invalid'],
      [{ ...US_BY_PHONE, recipientPhone: '+1 555' }, texts.sender.internationalPhoneInvalid, 'recipient_phone_invalid'],
      [{ ...US_BY_PHONE, recipientPhone: '+0 415 555 0132' }, texts.sender.internationalPhoneInvalid, 'recipient_phone_invalid'],
      // Optional beside an e-mail, but checked when given.
      [{ ...GIFT_FIELDS, recipientPhone: '12345' }, texts.sender.usPhoneLength, 'recipient_phone_invalid'],
    ];
    for (const [fields, error, code] of cases) {
      const res = await submitGift(h, cookie, fields);
      const label = `${fields.planId} ${fields.recipientPhone?.slice(0, 40)}`;
      expect(res.statusCode, label).toBe(400);
      expect(json(res), label).toEqual({ success: false, error, code });
    }
    expect(await storedGifts(h, email)).toEqual([]);
    expect(await mediaFiles(h)).toBe(before);
  });

  it('the earlier complaints come first: a bad number is judged only with a plan', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const res = await submitGift(h, cookie, { ...IN_BY_PHONE, planId: 'gold', recipientPhone: '12345' });
    expect(json(res)).toMatchObject({ success: false, error: texts.sender.planRequired });
    const noName = await submitGift(h, cookie, { ...IN_BY_PHONE, recipientName: '', recipientPhone: '12345' });
    expect(json(noName)).toMatchObject({ success: false, error: texts.sender.recipientNameRequired });
  });

  it('accepts good numbers of both regions and stores them as "+{calling code}{digits}"', async () => {
    const h = get();
    const { cookie, email } = await signIn(h);
    const cases: [Record<string, string>, string][] = [
      [{ ...IN_BY_PHONE, recipientPhone: '98765 43210' }, '+919876543210'],
      [{ ...IN_BY_PHONE, planId: 'basic_in', recipientPhone: '6123456789' }, '+916123456789'],
      [{ ...IN_BY_PHONE, planId: 'lifetime_in', recipientPhone: '0091 98765 43210' }, '+919876543210'],
      [{ ...IN_BY_PHONE, recipientPhone: '+91 98765-43210' }, '+919876543210'],
      [{ ...US_BY_PHONE, recipientPhone: '(415) 555-0132' }, '+14155550132'],
      [{ ...US_BY_PHONE, planId: 'lifetime_us', recipientPhone: '1 415 555 0132' }, '+14155550132'],
      [{ ...US_BY_PHONE, recipientPhone: '+44 20 7946 0958' }, '+442079460958'],
      [{ ...GIFT_FIELDS, recipientPhone: '415.555.0132' }, '+14155550132'],
    ];
    for (const [fields] of cases) {
      const res = await submitGift(h, cookie, fields);
      expect(res.statusCode, fields.recipientPhone).toBe(200);
    }
    expect((await storedGifts(h, email)).map((g) => g.recipient_phone).sort()).toEqual(cases.map(([, stored]) => stored).sort());
  });

  it('other fields over the multipart limit are refused, never stored cut', async () => {
    const h = get();
    const { cookie, email } = await signIn(h);
    const cases: [Record<string, string>, string][] = [
      [{ ...GIFT_FIELDS, recipientName: 'M'.repeat(200_000) }, texts.sender.recipientNameTooLong],
      [{ ...GIFT_FIELDS, recipientEmail: `${'m'.repeat(20_000)}@example.com` }, texts.sender.invalidEmail],
      [{ ...GIFT_FIELDS, senderEmail: 's'.repeat(20_000) }, texts.sender.giftFieldTooLong],
    ];
    for (const [fields, error] of cases) {
      const res = await submitGift(h, cookie, fields);
      expect(res.statusCode).toBe(400);
      expect(json(res)).toEqual({ success: false, error, code: 'field_too_long' });
    }
    // Under the multipart limit, an overlong e-mail is still refused (at most 254 characters).
    const longEmail = await submitGift(h, cookie, { ...GIFT_FIELDS, recipientEmail: `${'m'.repeat(300)}@example.com` });
    expect(json(longEmail)).toMatchObject({ success: false, error: texts.sender.invalidEmail });
    expect(await storedGifts(h, email)).toEqual([]);
  });
});
