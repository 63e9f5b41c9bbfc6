import { describe, expect, it } from 'vitest';
import { createUrlKeeper } from './stable-urls.ts';

describe('media links kept across refreshes', () => {
  it('gives back the first link for a file until it is too old, then the newer one', () => {
    let t = 0;
    const keeper = createUrlKeeper(30 * 60_000, () => t);
    const first = '/media/reactions/abc/r.mp4?exp=100&sig=aaa';
    expect(keeper.keep(first)).toBe(first);
    t = 10 * 60_000;
    expect(keeper.keep('/media/reactions/abc/r.mp4?exp=200&sig=bbb')).toBe(first);
    t = 31 * 60_000;
    expect(keeper.keep('/media/reactions/abc/r.mp4?exp=300&sig=ccc')).toBe('/media/reactions/abc/r.mp4?exp=300&sig=ccc');
  });

  it('keeps a download link apart from the same file played inline, and another file apart', () => {
    const keeper = createUrlKeeper(60_000, () => 0);
    expect(keeper.keep('/media/gifts/g/m.mp4?exp=1&sig=a')).toBe('/media/gifts/g/m.mp4?exp=1&sig=a');
    expect(keeper.keep('/media/gifts/g/m.mp4?exp=1&sig=a&download=1')).toBe('/media/gifts/g/m.mp4?exp=1&sig=a&download=1');
    expect(keeper.keep('/media/gifts/g/m.mp4?exp=2&sig=b&download=1')).toBe('/media/gifts/g/m.mp4?exp=1&sig=a&download=1');
    expect(keeper.keep('/media/gifts/g/other.mp4?exp=2&sig=b')).toBe('/media/gifts/g/other.mp4?exp=2&sig=b');
    expect(keeper.keep(null)).toBeNull();
  });
});
