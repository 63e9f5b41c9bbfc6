import { MB, SCAN_COMPRESSION } from '@giftlens/contract/constants';
import { SCAN_RECIPE } from '@giftlens/matcher/decode';
import { describe, expect, it } from 'vitest';

describe('the scan photo recipe', () => {
  it('is the same in the web (SCAN_COMPRESSION) and in the matcher’s `browserCompress` (npm run match, the evaluations)', () => {
    expect(SCAN_RECIPE).toEqual({
      side: SCAN_COMPRESSION.maxWidthOrHeight,
      quality: Math.round(SCAN_COMPRESSION.initialQuality * 100),
      minQuality: Math.round(SCAN_COMPRESSION.minQuality * 100),
      maxBytes: SCAN_COMPRESSION.maxSizeMB * MB,
    });
  });
});
