import { describe, expect, it } from 'vitest';

describe('zod-jitless', () => {
  it('turns on the jitless mode zod reads, without importing zod itself', async () => {
    await import('./zod-jitless.ts');
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
    // A schema built afterwards parses (without the compiled fast path).
    expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
  });
});
