export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock a test moves forward through the server (`POST /api/test/clock`, only with TEST_CLOCK). */
export interface AdjustableClock extends Clock {
  /** Moves the clock forward to `instant`; an instant it has already passed leaves it as it is. Answers the new now. */
  advanceTo(instant: Date): Date;
}

/** A clock tests can move forward (e.g. past a code's expiry). */
export class ManualClock implements AdjustableClock {
  constructor(private current: Date = new Date()) {}
  now(): Date {
    return new Date(this.current.getTime());
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
  set(date: Date): void {
    this.current = new Date(date.getTime());
  }
  advanceTo(instant: Date): Date {
    if (instant.getTime() > this.current.getTime()) this.set(instant);
    return this.now();
  }
}

/**
 * The browser tests' clock (`TEST_CLOCK=1`, refused by config.ts anywhere but a loopback test server): the system's
 * time plus an offset a test moves forward (`POST /api/test/clock`), so a delivery due in ten minutes goes out now.
 * It keeps running like the real one and never goes back: leases and due times stay in order.
 */
export class TestClock implements AdjustableClock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advanceTo(instant: Date): Date {
    this.offsetMs = Math.max(this.offsetMs, instant.getTime() - Date.now());
    return this.now();
  }
}
