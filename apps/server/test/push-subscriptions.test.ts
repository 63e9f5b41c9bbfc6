import { texts } from '@giftlens/contract/texts';
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { describeEachDatabase, it, json, signIn, uniqueEmail, type Harness } from './helpers/harness.ts';
import { browserKeys } from './helpers/push-receiver.ts';

/** A browser's subscription: its endpoint at a push service and the keys only that browser (and we) hold. */
const device = () => {
  const { p256dh, auth } = browserKeys();
  return { p256dh, auth };
};

function subscribe(h: Harness, cookie: string, endpoint: string, keys: { p256dh: string; auth: string }) {
  return h.app.inject({ method: 'POST', url: '/api/push/subscribe', headers: { cookie }, payload: { endpoint, expirationTime: null, keys } });
}

const rowsAt = (h: Harness, endpoint: string) =>
  h.db.selectFrom('push_subscriptions').selectAll().where('endpoint', '=', endpoint).execute();

const senderId = async (h: Harness, email: string) =>
  (await h.db.selectFrom('senders').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

describeEachDatabase('push subscriptions belong to one sender (decision 037)', (get) => {
  it('another sender cannot take a subscription by its endpoint; the owner’s row stays as it was', async () => {
    const h = get();
    const owner = await signIn(h, uniqueEmail('owner'));
    const other = await signIn(h, uniqueEmail('other'));
    const endpoint = `https://fcm.googleapis.com/fcm/send/${randomBytes(12).toString('hex')}`;
    const keys = device();
    expect((await subscribe(h, owner.cookie, endpoint, keys)).statusCode).toBe(200);
    const before = await rowsAt(h, endpoint);
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({ sender_id: await senderId(h, owner.email), p256dh: keys.p256dh, auth: keys.auth });

    h.clock.advance(60_000);
    // The endpoint alone (keys of another browser), or the public key with another auth secret: refused.
    for (const attempt of [device(), { p256dh: keys.p256dh, auth: device().auth }, { p256dh: device().p256dh, auth: keys.auth }]) {
      const res = await subscribe(h, other.cookie, endpoint, attempt);
      expect(res.statusCode, res.body).toBe(409);
      expect(json(res)).toEqual({ success: false, error: texts.sender.pushSubscriptionTaken, code: 'push_subscription_taken' });
    }
    expect(await rowsAt(h, endpoint)).toEqual(before);

    // The other sender's unsubscribe does not remove it either.
    const off = await h.app.inject({ method: 'POST', url: '/api/push/unsubscribe', headers: { cookie: other.cookie }, payload: { endpoint } });
    expect(off.statusCode).toBe(200);
    expect(await rowsAt(h, endpoint)).toEqual(before);
  });

  it('the same sender subscribing again keeps one row with the new keys', async () => {
    const h = get();
    const owner = await signIn(h, uniqueEmail('owner'));
    const endpoint = `https://fcm.googleapis.com/fcm/send/${randomBytes(12).toString('hex')}`;
    expect((await subscribe(h, owner.cookie, endpoint, device())).statusCode).toBe(200);
    const [first] = await rowsAt(h, endpoint);
    h.clock.advance(60_000);
    const renewed = device();
    expect((await subscribe(h, owner.cookie, endpoint, renewed)).statusCode).toBe(200);
    expect((await subscribe(h, owner.cookie, endpoint, renewed)).statusCode).toBe(200);
    const rows = await rowsAt(h, endpoint);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: first!.id,
      sender_id: await senderId(h, owner.email),
      p256dh: renewed.p256dh,
      auth: renewed.auth,
      created_at: first!.created_at,
      updated_at: h.clock.now().toISOString(),
    });
  });

  it('another account on the same browser (it sends the stored keys) takes the subscription over', async () => {
    const h = get();
    const first = await signIn(h, uniqueEmail('first'));
    const second = await signIn(h, uniqueEmail('second'));
    const endpoint = `https://fcm.googleapis.com/fcm/send/${randomBytes(12).toString('hex')}`;
    const keys = device();
    expect((await subscribe(h, first.cookie, endpoint, keys)).statusCode).toBe(200);
    h.clock.advance(60_000);
    // What the web app does when the page opens for the account now signed in on this browser.
    const res = await subscribe(h, second.cookie, endpoint, keys);
    expect(res.statusCode, res.body).toBe(200);
    const rows = await rowsAt(h, endpoint);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ sender_id: await senderId(h, second.email), p256dh: keys.p256dh, auth: keys.auth });
    // Now the first account is the other one: without the keys it cannot take it back.
    expect((await subscribe(h, first.cookie, endpoint, device())).statusCode).toBe(409);
    expect((await rowsAt(h, endpoint))[0]?.sender_id).toBe(await senderId(h, second.email));
  });
});
