import { contributionApi, groupTexts } from '@giftlens/contract/group-gifts';
import { giftCardTexts, reminderTexts, topUpTexts } from '@giftlens/contract/extras-texts';
import { merchantTexts } from '@giftlens/contract/merchants';
import { API } from '@giftlens/contract/routes';
import { texts } from '@giftlens/contract/texts';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIFT_FIELDS, createGift, createOrder, paidGift } from '../test/helpers/flows.ts';
import { DATABASE_TARGETS } from '../test/helpers/databases.ts';
import { createHarness, json, PUBLIC_ORIGIN, signIn, type Harness } from '../test/helpers/harness.ts';
import { giftPhoto } from '../test/helpers/media.ts';
import { directScan, recipientSignIn, revealCookie, scanPhotos } from '../test/helpers/recipient.ts';
import { changedTables, databaseFingerprint } from './fuzz/fingerprint.ts';
import {
  type CookieMode,
  type FuzzRequest,
  type Operation,
  type OriginMode,
  isMultipartRoute,
  operationsOf,
  requestArbitrary,
} from './fuzz/requests.ts';

/**
 * `npm run test:fuzz`: thousands of generated hostile requests against every call of the real app (in process,
 * SQLite and PostgreSQL). For every answer: never a 5xx or a hang; every 4xx in decision 001's shape with a text
 * from the contract (the spec's own where it has one); the exact text where the request says which it must be
 * (no session, a cross-site call); and a refused request leaves the database as it was.
 */

// At least 10,000 on SQLite; PostgreSQL runs the same generator (same seed) for fewer, as its round trips cost more.
const RUNS = {
  sqlite: Number(process.env.FUZZ_RUNS ?? 10_000),
  postgres: Number(process.env.FUZZ_RUNS_POSTGRES ?? 1_500),
};
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const HANG_MS = 10_000;

/** Every text the API may answer with; texts with a value in them ("…up to 10MB. Your file is 12MB.") as patterns. */
const STATIC_TEXTS = new Set<string>();
const TEXT_PATTERNS: RegExp[] = [];
for (const t of [...Object.values(texts.sender), ...Object.values(texts.recipient), ...Object.values(texts.media), ...Object.values(texts.backupCode), ...Object.values(groupTexts), ...Object.values(merchantTexts), ...Object.values(giftCardTexts), ...Object.values(topUpTexts), ...Object.values(reminderTexts)] as unknown[]) {
  if (typeof t === 'string') STATIC_TEXTS.add(t);
  else if (typeof t === 'function') {
    const marker = '\u0001';
    const filled = String((t as (...a: string[]) => unknown)(marker, marker, marker, marker));
    const escaped = filled
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .split(marker)
      .join('.+');
    TEXT_PATTERNS.push(new RegExp(`^${escaped}$`, 's'));
  }
}
const isContractText = (s: string) => STATIC_TEXTS.has(s) || TEXT_PATTERNS.some((p) => p.test(s));

/** Calls that need the sender's session (their preValidation guard answers 401 before the input is looked at). */
const SENDER_ONLY = new Set([
  `POST ${API.updateUser}`,
  `GET ${API.me}`,
  `POST ${API.logoutEverywhere}`,
  `DELETE ${API.account}`,
  `GET ${API.myGifts}`,
  `POST ${API.submitGift}`,
  `POST ${API.generateUploadUrl}`,
  `POST ${API.confirmUpload}`,
  `POST ${API.saveTextMessage}`,
  `GET ${API.senderGift('{giftId}')}`,
  `DELETE ${API.senderGift('{giftId}')}`,
  `POST ${API.giftPhotos('{giftId}')}`,
  `POST ${API.createOrder}`,
  `POST ${API.testPay}`,
  `POST ${API.scheduledMessages}`,
  `GET ${API.scheduledMessages}`,
  `POST ${API.sendNow}`,
  `PATCH ${API.scheduledMessage('{id}')}`,
  `DELETE ${API.scheduledMessage('{id}')}`,
  `POST ${API.pushSubscribe}`,
  `POST ${API.pushUnsubscribe}`,
  `POST ${contributionApi.invitations('{giftId}')}`,
  `GET ${contributionApi.invitations('{giftId}')}`,
  `GET ${contributionApi.contributions('{giftId}')}`,
  `POST ${contributionApi.close('{giftId}')}`,
  `PATCH ${contributionApi.contribution('{giftId}', '{id}')}`,
  `DELETE ${contributionApi.contribution('{giftId}', '{id}')}`,
]);
/** Calls that would end the fuzzer's own session or delete its fixtures when made with it. */
const DESTRUCTIVE = new Set([`POST ${API.logout}`, `POST ${API.logoutEverywhere}`, `DELETE ${API.account}`]);

const CREDENTIAL_COOKIE = /(?:^|;\s*)gl_(?:sender|recipient|reveal_[0-9a-f]+)=/;
const ORIGINS: Record<OriginMode, Record<string, string>> = {
  none: {},
  own: { origin: PUBLIC_ORIGIN },
  foreign: { origin: 'https://evil.example' },
  null: { origin: 'null' },
  lookalike: { origin: `${PUBLIC_ORIGIN}.evil.example` },
  crossSiteFetch: { 'sec-fetch-site': 'cross-site' },
  sameSiteFetch: { 'sec-fetch-site': 'same-site' },
};
const CROSS_SITE: ReadonlySet<OriginMode> = new Set(['foreign', 'null', 'lookalike', 'crossSiteFetch', 'sameSiteFetch']);

interface Fixtures {
  cookies: Record<Exclude<CookieMode, 'none'>, string>;
  giftIds: string[];
  emails: string[];
  ids: string[];
}

async function fixtures(h: Harness): Promise<Fixtures> {
  const a = await signIn(h);
  const b = await signIn(h);
  const paid = await paidGift(h, a.cookie);
  const unpaid = await createGift(h, a.cookie);
  const foreign = await createGift(h, b.cookie);
  const order = json<{ orderId: string }>(await createOrder(h, a.cookie, unpaid)).orderId;
  const scheduled = await h.app.inject({
    method: 'POST',
    url: API.scheduledMessages,
    headers: { cookie: a.cookie },
    payload: {
      giftId: paid,
      recipientContact: 'maya@example.com',
      contactType: 'email',
      scheduledDatetime: new Date(h.clock.now().getTime() + 86_400_000).toISOString(),
      timezone: 'UTC',
    },
  });
  if (scheduled.statusCode !== 200) throw new Error(`scheduling failed: ${scheduled.body}`);
  const deliveryId = json<{ id: string }>(scheduled).id;
  const recipient = await recipientSignIn(h, GIFT_FIELDS.recipientEmail.toLowerCase());
  const scan = await directScan(h, paid, (await scanPhotos()).genuine);
  const reveal = revealCookie(scan, paid);
  if (!reveal) throw new Error(`no reveal grant from the genuine scan: ${scan.body}`);
  return {
    cookies: {
      sender: a.cookie,
      otherSender: b.cookie,
      recipient: recipient.cookie,
      reveal,
      forged: `gl_sender=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA; gl_recipient=forged; gl_reveal_${paid}=forged`,
      garbage: 'gl_sender=%E0%A4%A; =;;; gl_recipient',
    },
    giftIds: [paid, unpaid, foreign],
    emails: [a.email, b.email, GIFT_FIELDS.recipientEmail],
    ids: [recipient.recipientId, deliveryId, order, 'birthday', paid],
  };
}

const opKey = (op: Operation) => `${op.method} ${op.path}`;

/** The injected request; a session that would end the run (logout, deleting the account or a fixture gift) is forged. */
function toInject(r: FuzzRequest, fx: Fixtures): { options: InjectOptions; cookie: string | undefined } {
  let mode = r.cookie;
  const own = !CROSS_SITE.has(r.origin);
  const deletesFixture = r.op.method === 'DELETE' && fx.giftIds.some((g) => r.url.includes(g));
  if (
    own &&
    (mode === 'sender' || mode === 'otherSender') &&
    (DESTRUCTIVE.has(opKey(r.op)) || deletesFixture)
  )
    mode = 'forged';
  const cookie = mode === 'none' ? undefined : fx.cookies[mode];
  const headers: Record<string, string> = { ...ORIGINS[r.origin] };
  if (cookie) headers.cookie = cookie;
  if (r.contentType) headers['content-type'] = r.contentType;
  return {
    options: {
      method: r.op.method,
      url: r.url,
      headers,
      ...(r.payload !== undefined ? { payload: r.payload } : {}),
    },
    cookie,
  };
}

/** Whether Fastify gets as far as the route's preValidation (the session check) with this body. */
function reachesGuard(r: FuzzRequest): boolean {
  if (r.op.method === 'GET') return true;
  if (r.bodyKind === 'raw') return r.contentType === 'text/plain';
  // Only the calls that take a multipart body read one (decision 032); the others refuse it with 415 first.
  if (r.bodyKind === 'multipart') return isMultipartRoute(r.op);
  return r.bodyKind === 'none' || r.bodyKind === 'json' || r.bodyKind === 'wrongType';
}

interface Figures {
  requests: number;
  byStatus: Record<string, number>;
  refusedUnchanged: number;
  ms: number;
  slowest: { ms: number; what: string }[];
}

function describeRequest(r: FuzzRequest, options: InjectOptions): string {
  const payload = typeof r.payload === 'string' ? r.payload : r.payload?.toString('latin1');
  return `${r.op.method} ${r.url.slice(0, 200)} headers=${JSON.stringify(options.headers)} body(${r.bodyKind})=${JSON.stringify(payload?.slice(0, 200))}`;
}

for (const target of DATABASE_TARGETS) {
  describe.skipIf(target.unavailable !== null)(`fuzzing every call [${target.name}]`, () => {
    let h: Harness;
    let close: () => Promise<void>;
    let fx: Fixtures;
    let ops: Operation[];
    const figures: Figures = { requests: 0, byStatus: {}, refusedUnchanged: 0, ms: 0, slowest: [] };

    beforeAll(async () => {
      const created = await createHarness(target);
      h = created.harness;
      close = () => created.close();
      fx = await fixtures(h);
      ops = operationsOf(json(await h.app.inject({ url: '/api/docs/json' })));
      // Media is served outside the API document; its signed URLs are fuzzed too.
      ops.push({
        method: 'GET',
        path: '/media/{key}',
        body: null,
        params: { key: { type: 'string' } },
        query: { exp: { type: 'string' }, sig: { type: 'string' } },
      });
    }, 120_000);
    afterAll(async () => {
      const statuses = Object.entries(figures.byStatus)
        .sort()
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ');
      console.log(
        `fuzz [${target.name}] seed ${SEED}: ${figures.requests} requests in ${(figures.ms / 1000).toFixed(1)} s ` +
          `(${Math.round(figures.requests / (figures.ms / 1000))}/s); by status ${statuses}; ` +
          `${figures.refusedUnchanged} refused requests left the database unchanged; slowest: ` +
          figures.slowest.map((s) => `${s.what} ${Math.round(s.ms)} ms`).join(', '),
      );
      await close();
    }, 60_000);

    it('every call of the API is in the fuzzed set', () => {
      const norm = (p: string) => p.replace(/\{[^}]*\}/g, '{}');
      const fuzzed = new Set(ops.map((o) => norm(o.path)));
      const paths = Object.values(API).map((v) => (typeof v === 'function' ? v('{x}') : v));
      expect(paths.filter((p) => !fuzzed.has(norm(p)))).toEqual([]);
    });

    it(`${RUNS[target.name]} hostile requests: no 5xx, no hang, the error body and text, the database unchanged when refused`, async () => {
      const started = Date.now();
      let before = await databaseFingerprint(h.db, target.name);
      const problems: string[] = [];
      const seen = new Set<string>();
      const arbitrary = requestArbitrary(
        ops,
        { giftIds: fx.giftIds, emails: fx.emails, ids: fx.ids },
        giftPhoto(),
      );
      try {
        await fc.assert(
          fc.asyncProperty(arbitrary, async (r) => {
            const { options, cookie } = toInject(r, fx);
            let timer: NodeJS.Timeout | undefined;
            const t0 = performance.now();
            const res = await Promise.race([
              h.app.inject(options),
              new Promise<'hang'>((resolve) => {
                timer = setTimeout(() => resolve('hang'), HANG_MS);
              }),
            ]);
            clearTimeout(timer);
            const took = performance.now() - t0;
            figures.slowest.push({
              ms: took,
              what: `${opKey(r.op)} ${r.bodyKind} ${res === 'hang' ? 'hang' : res.statusCode}`,
            });
            figures.slowest = figures.slowest.sort((x, y) => y.ms - x.ms).slice(0, 5);
            figures.requests++;
            const status = res === 'hang' ? 'hang' : String(res.statusCode);
            figures.byStatus[status] = (figures.byStatus[status] ?? 0) + 1;
            const after = await databaseFingerprint(h.db, target.name);
            const problem = res === 'hang' ? 'no answer within 10 s' : check(r, res, cookie, before, after);
            if (res !== 'hang' && res.statusCode >= 400 && !problem) figures.refusedUnchanged++;
            before = after;
            if (problem) {
              // One line per kind of problem per call, so a run lists everything to fix, not just the first.
              const kind = `${opKey(r.op)} → ${problem.split(':')[0]}`;
              if (!seen.has(kind)) {
                seen.add(kind);
                problems.push(`${kind}\n    ${problem}\n    ${describeRequest(r, options)}`);
              }
            }
          }),
          { numRuns: RUNS[target.name], seed: SEED, endOnFailure: true },
        );
      } finally {
        figures.ms = Date.now() - started;
      }
      expect(problems.join('\n'), `seed ${SEED}`).toBe('');
    }, 600_000);

    function check(
      r: FuzzRequest,
      res: LightMyRequestResponse,
      cookie: string | undefined,
      before: Record<string, string>,
      after: Record<string, string>,
    ): string | null {
      const status = res.statusCode;
      if (status >= 500) return `5xx: ${status} ${res.body.slice(0, 300)}`;
      if (status < 400) return null;
      const changed = changedTables(before, after);
      if (changed.length) return `refused but wrote: ${status} changed ${changed.join(', ')}`;
      if (r.op.method === 'HEAD') return null;
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(res.body) as Record<string, unknown>;
      } catch {
        return `not JSON: ${status} ${res.body.slice(0, 200)}`;
      }
      if (
        body.success !== false ||
        typeof body.error !== 'string' ||
        typeof body.code !== 'string' ||
        !body.code
      )
        return `shape: ${status} ${res.body.slice(0, 300)}`;
      if (!isContractText(body.error)) return `text not in the contract: ${status} ${res.body.slice(0, 300)}`;
      if (status === 429)
        return typeof body.retryAfter === 'number' ? null : `429 without retryAfter: ${res.body}`;
      const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(r.op.method);
      const crossSite =
        !r.badUrl && unsafe && CREDENTIAL_COOKIE.test(cookie ?? '') && CROSS_SITE.has(r.origin);
      if (crossSite)
        return status === 403 && body.error === texts.sender.crossSiteRefused
          ? null
          : `cross-site not refused: ${status} ${res.body.slice(0, 200)}`;
      const signedIn =
        cookie !== undefined && (cookie === fx.cookies.sender || cookie === fx.cookies.otherSender);
      if (!r.badUrl && !signedIn && SENDER_ONLY.has(opKey(r.op)) && reachesGuard(r))
        return status === 401 && body.error === texts.sender.unauthorized
          ? null
          : `no session not 401: ${status} ${res.body.slice(0, 200)}`;
      return null;
    }
  });
}
