import { describe, expect, test } from 'vitest';
import { detailsLine, formatLag, formatStamp, words } from './staff-format.ts';

describe('staff formats', () => {
  test('a lag reads as people say it', () => {
    expect(formatLag(0)).toBe('none');
    expect(formatLag(850)).toBe('850 ms');
    expect(formatLag(42_000)).toBe('42 s');
    expect(formatLag(185_000)).toBe('3 min 5 s');
    expect(formatLag(7_800_000)).toBe('2 h 10 min');
  });

  test('a stamp shows seconds; none is a dash; a text that is not a date stays as it is', () => {
    expect(formatStamp(null)).toBe('—');
    expect(formatStamp('soon')).toBe('soon');
    expect(formatStamp('2026-11-26T17:03:05Z')).toMatch(/2026.*\d{2}:\d{2}:05/);
  });

  test('states lose their underscores', () => {
    expect(words('taken_down')).toBe('taken down');
  });
});

test('an audit entry’s JSON details read as a line; other text stays as it is', () => {
  expect(detailsLine('{"days":30,"scans":0,"validUntil":"2027-01-25T17:24:46.139Z"}')).toBe(
    'days 30 · scans 0 · validUntil 2027-01-25T17:24:46.139Z',
  );
  expect(detailsLine('moved by hand')).toBe('moved by hand');
  expect(detailsLine('[1,2]')).toBe('[1,2]');
});
