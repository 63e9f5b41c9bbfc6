import { texts } from '@giftlens/contract/texts';
import { describe, expect, it } from 'vitest';
import { cameraErrorText, errorKind, isRefusal, RETRY_TITLES } from './scan-errors.ts';

describe('scan errors', () => {
  it('titles the retry dialog by what the error text is about', () => {
    expect(RETRY_TITLES[errorKind(texts.recipient.cameraError)]).toBe('Camera problem');
    expect(RETRY_TITLES[errorKind('The photo is too dark')]).toBe('Too dark');
    expect(RETRY_TITLES[errorKind('The photo is blurry, hold steady')]).toBe('Hold steady');
    expect(RETRY_TITLES[errorKind(texts.recipient.noMatch)]).toBe('Gift not recognised');
    expect(RETRY_TITLES[errorKind(texts.recipient.apiError(500))]).toBe('Gift not recognised');
  });

  it('words camera failures as the spec does, adding the permission sentence in the recipient flow', () => {
    const denied = new DOMException('denied', 'NotAllowedError');
    expect(cameraErrorText(denied, false)).toBe('Camera access is required to scan your gift');
    expect(cameraErrorText(denied, true)).toBe('Camera access is required to scan your gift. Please allow camera permissions.');
    expect(cameraErrorText(new DOMException('busy', 'NotReadableError'), true)).toBe(texts.recipient.cameraError);
    expect(cameraErrorText(new DOMException('none', 'NotFoundError'), false)).toBe(texts.recipient.cameraError);
    expect(cameraErrorText(new TypeError('boom'), false)).toBe(texts.recipient.cameraInitFailed);
  });

  it('treats limits, expiry and sign-out as refusals rather than failed recognitions', () => {
    for (const status of [401, 403, 410, 429]) expect(isRefusal(status)).toBe(true);
    for (const status of [0, 400, 404, 500]) expect(isRefusal(status)).toBe(false);
  });
});
