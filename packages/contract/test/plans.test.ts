import { describe, expect, it } from 'vitest';
import { PLANS } from '../src/plans.ts';

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
