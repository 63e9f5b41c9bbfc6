import { texts } from '@giftlens/contract/texts';
import { expect } from 'vitest';
import { GIFT_FIELDS } from './helpers/flows.ts';
import { describeEachDatabase, it, json, signIn } from './helpers/harness.ts';
import { giftPhoto, multipart } from './helpers/media.ts';

// Issue 37, item 9: a NUL byte in any string was a 500 on PostgreSQL (18 routes, the payment callback too). Now every
// route answers 400, on both databases, before anything is written: its own schema's refusal where the field has a
// shape (an id, an enum), else invalid_characters.

interface Operation {
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
  parameters?: { in: string; name: string }[];
}

const NUL = 'a\u0000b';
const refused = { success: false, code: 'invalid_characters', error: texts.sender.invalidCharacters };

describeEachDatabase('NUL bytes are a 400 on every route (issue 37)', (get) => {
  it('every documented call with a JSON body, a query or a path parameter refuses a NUL in it', async () => {
    const h = get();
    const doc = json<{ paths: Record<string, Record<string, Operation>> }>(await h.app.inject({ method: 'GET', url: '/api/docs/json' }));
    const { cookie } = await signIn(h);
    let tried = 0;
    let nulRefusals = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const params = op.parameters ?? [];
        const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name);
        const queryParams = params.filter((p) => p.in === 'query').map((p) => p.name);
        const jsonBody = op.requestBody?.content?.['application/json']?.schema?.properties;
        const url = (nulIn: string | null) =>
          template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(name === nulIn ? NUL : 'f'.repeat(32)));
        const attempts: { url: string; payload?: object }[] = [];
        for (const name of pathParams) attempts.push({ url: url(name) });
        for (const name of queryParams) attempts.push({ url: `${url(null)}?${name}=${encodeURIComponent(NUL)}` });
        if (jsonBody) {
          const fields = Object.keys(jsonBody);
          attempts.push({ url: url(null), payload: Object.fromEntries((fields.length ? fields : ['field']).map((f) => [f, NUL])) });
        }
        for (const attempt of attempts) {
          const send = (a: { url: string; payload?: object }) =>
            h.app.inject({ method: method.toUpperCase() as 'POST', url: a.url, headers: { cookie, origin: 'http://giftlens.test' }, ...(a.payload ? { payload: a.payload } : {}) });
          const res = await send(attempt);
          // A call of a session this test does not hold (recipient, staff) is refused for that first, NUL or not.
          if (res.statusCode === 401 || res.statusCode === 403) {
            const clean = JSON.parse(JSON.stringify(attempt).replaceAll('\\u0000', '').replaceAll('%00', '')) as typeof attempt;
            expect((await send(clean)).statusCode, `${method} ${attempt.url} without the NUL`).toBe(res.statusCode);
            continue;
          }
          expect(res.statusCode, `${method} ${attempt.url} ${JSON.stringify(attempt.payload)}: ${res.body}`).toBe(400);
          const body = json<{ success: boolean; code: string; error: string }>(res);
          expect([body.success, typeof body.code, typeof body.error], `${method} ${attempt.url}`).toEqual([false, 'string', 'string']);
          if (body.code === 'invalid_characters') nulRefusals++;
          tried++;
        }
      }
    }
    expect(tried).toBeGreaterThan(40);
    // Where no schema says more, the NUL check itself answers (free-text fields, emails before their shape, queries).
    expect(nulRefusals).toBeGreaterThanOrEqual(8);
    // The unauthenticated payment callback, nested and in a key.
    for (const payload of [{ orderId: NUL, paymentId: 'p', signature: 's' }, { orderId: 'o', nested: { deep: [NUL] } }, { [NUL]: 'x' }]) {
      const res = await h.app.inject({ method: 'POST', url: '/api/payment/verify-payment-callback', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(json(res)).toMatchObject({ success: false });
    }
  });

  it('a NUL in a multipart field is a 400 and nothing is stored', async () => {
    const h = get();
    const { cookie } = await signIn(h);
    const before = await h.db.selectFrom('gifts').select('id').execute();
    const form = multipart({ ...GIFT_FIELDS, occasion: `birthday${NUL}` }, [{ name: 'giftImage', filename: 'gift.jpg', type: 'image/jpeg', data: giftPhoto() }]);
    const res = await h.app.inject({ method: 'POST', url: '/api/gift-sender/submit-gift', headers: { cookie, ...form.headers }, payload: form.payload });
    expect(res.statusCode, res.body).toBe(400);
    expect(json(res)).toEqual(refused);
    expect(await h.db.selectFrom('gifts').select('id').execute()).toHaveLength(before.length);
  });
});
