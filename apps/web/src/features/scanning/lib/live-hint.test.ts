import { describe, expect, it } from 'vitest';
import { hintOfAnswer, newScanSession, scannerHint, SERVER_HINT_MS } from './live-hint.ts';

describe('the live scanner’s "Move closer" from the server (decision 047)', () => {
  it('takes the hint from a miss that carries it, and from nothing else', () => {
    expect(hintOfAnswer({ success: false, decided: false, framesLeft: 3, hint: 'moveCloser' })).toBe('moveCloser');
    expect(hintOfAnswer({ success: false, decided: false, framesLeft: 3 })).toBeNull();
  });

  it('shows the page’s own check first, then the server’s hint', () => {
    expect(scannerHint('moreLight', 'moveCloser')).toBe('moreLight');
    expect(scannerHint(null, 'moveCloser')).toBe('moveCloser');
    expect(scannerHint(null, null)).toBeNull();
  });

  it('keeps the server’s hint for about two live frames', () => {
    expect(SERVER_HINT_MS).toBeGreaterThanOrEqual(2 * 400);
    expect(SERVER_HINT_MS).toBeLessThan(2000);
  });

  it('makes a new session id each time, in the form the server takes', () => {
    const a = newScanSession(), b = newScanSession();
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
  });
});
