import { texts } from '@giftlens/contract/texts';
import { expect, vi } from 'vitest';
import { TestClock } from '../src/adapters/clock.ts';
import { describeEachDatabase, it, json } from './helpers/harness.ts';

const PATH = '/api/test/clock';

describeEachDatabase(
  'test clock (TEST_CLOCK=1: the browser tests move the server clock)',
  (get) => {
    it('moves the clock forward to the instant asked, never back, and answers the new time', async () => {
      const { app, clock } = get();
      const start = clock.now().getTime();
      const to = new Date(start + 10 * 60_000).toISOString();
      const res = await app.inject({ method: 'POST', url: PATH, payload: { to } });
      expect(res.statusCode).toBe(200);
      expect(json(res)).toEqual({ success: true, now: to });
      expect(clock.now().toISOString()).toBe(to);
      // An instant already passed leaves the clock where it is.
      const back = await app.inject({ method: 'POST', url: PATH, payload: { to: new Date(start).toISOString() } });
      expect(json(back)).toEqual({ success: true, now: to });
      expect(clock.now().toISOString()).toBe(to);
    });

    it('refuses a body without an instant, and any peer but this machine', async () => {
      const { app, clock } = get();
      const before = clock.now().toISOString();
      for (const payload of [{}, { to: 'tomorrow' }, { to: 5 }]) {
        const res = await app.inject({ method: 'POST', url: PATH, payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      }
      const far = await app.inject({
        method: 'POST',
        url: PATH,
        payload: { to: new Date(Date.parse(before) + 60_000).toISOString() },
        remoteAddress: '192.0.2.7',
      });
      expect(far.statusCode).toBe(403);
      expect(json(far)).toMatchObject({ success: false, error: texts.sender.generic, code: 'test_clock_loopback_only' });
      expect(clock.now().toISOString()).toBe(before);
    });

    it('is not in the API reference', async () => {
      const { app } = get();
      const doc = json<{ paths: Record<string, unknown> }>(await app.inject({ method: 'GET', url: '/api/docs/json' }));
      expect(Object.keys(doc.paths)).not.toContain(PATH);
    });
  },
  { testClockRoute: true },
);

describeEachDatabase('test clock, not configured', (get) => {
  it('is no route at all', async () => {
    const { app, clock } = get();
    const before = clock.now().toISOString();
    const res = await app.inject({ method: 'POST', url: PATH, payload: { to: '2030-01-01T00:00:00Z' } });
    expect(res.statusCode).toBe(404);
    expect(clock.now().toISOString()).toBe(before);
  });
});

it('the TestClock runs with the system clock, shifted only forward', () => {
  // The system clock faked, so "runs with it" is exact instead of within a few milliseconds of a busy machine.
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-28T12:00:00Z') });
  try {
    const clock = new TestClock();
    expect(clock.now().getTime()).toBe(Date.now());
    const later = Date.now() + 3_600_000;
    expect(clock.advanceTo(new Date(later)).getTime()).toBe(later);
    clock.advanceTo(new Date(Date.now() - 60_000));
    expect(clock.now().getTime()).toBe(later);
    vi.setSystemTime(Date.now() + 5_000);
    expect(clock.now().getTime()).toBe(later + 5_000);
  } finally {
    vi.useRealTimers();
  }
});
