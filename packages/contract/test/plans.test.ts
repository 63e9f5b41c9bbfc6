import { describe, expect, it } from 'vitest';
import { LOWEST_PRICES } from '../src/lowest-prices.ts';
import { formatFileMegabytes, formatLimit, lowestPrice, PLANS } from '../src/plans.ts';

describe('plans say what is true', () => {
  it('a plan advertises downloads exactly when it has them, and only for the sender (players never offer one)', () => {
    for (const plan of PLANS) {
      const mentions = plan.features.filter((f) => /download/i.test(f));
      expect(mentions, plan.id).toHaveLength(1);
      expect(mentions[0], plan.id).toBe(plan.downloads ? (plan.reactions ? 'Download your message and the reaction' : 'Download your message') : 'No downloads');
      expect(plan.features.join(' '), plan.id).not.toMatch(/recipient can download/i);
    }
  });

  it('reaction recording is advertised exactly on the plans that record reactions', () => {
    for (const plan of PLANS) expect(plan.features.includes('Reaction recording'), plan.id).toBe(plan.reactions);
  });
});

describe('the size-limit message', () => {
  it('shows a file over the limit as more than the limit, and an exact size as it is', () => {
    const MB = 1024 * 1024;
    expect(formatLimit(30 * MB)).toBe('30MB');
    expect(formatFileMegabytes(30 * MB + 1)).toBe('30.01');
    expect(formatFileMegabytes(31.5 * MB)).toBe('31.50');
    expect(formatFileMegabytes(30 * MB)).toBe('30.00');
  });
});

describe('the landing page’s "From …"', () => {
  it('is each price list’s lowest price', () => {
    expect(LOWEST_PRICES).toEqual({ IN: lowestPrice('IN'), US: lowestPrice('US') });
    expect(LOWEST_PRICES).toEqual({ IN: '₹29', US: '$1.99' });
  });
});
