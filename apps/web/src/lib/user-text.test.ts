import { recordingLength, texts } from '@giftlens/contract/texts';
import { describe, expect, it } from 'vitest';
import { errorText, isUserText, userText } from './user-text.ts';

describe('which texts may reach a user', () => {
  it('takes every text of the contract, sender and recipient side', () => {
    for (const text of Object.values(texts.sender)) if (typeof text === 'string') expect(isUserText(text), text).toBe(true);
    for (const text of Object.values(texts.recipient)) if (typeof text === 'string') expect(isUserText(text), text).toBe(true);
    for (const text of Object.values(texts.backupCode)) if (typeof text === 'string') expect(isUserText(text), text).toBe(true);
  });

  it('takes the contract’s worded templates, filled in', () => {
    expect(isUserText(texts.sender.fileTooLarge('Premium plan', '30MB', '31.20'))).toBe(true);
    expect(isUserText(texts.recipient.apiError(503))).toBe(true);
    expect(isUserText(texts.recipient.unableToRecord('Permission denied'))).toBe(true);
    // The server's refusals of a recording over MEDIA_LIMITS, as confirm-upload answers them.
    expect(isUserText(texts.media.tooLong('video', recordingLength(900)))).toBe(true);
    expect(isUserText(texts.media.frameTooLarge('video', '8192×8192'))).toBe(true);
    expect(isUserText(texts.media.frameRateTooHigh('reaction', '120'))).toBe(true);
    expect(isUserText(texts.media.tooCostly)).toBe(true);
  });

  it('refuses a schema’s developer wording, exception texts and anything else', () => {
    for (const text of [
      'Invalid input: expected array, received undefined',
      'Invalid input: expected string, received undefined',
      'Too big: expected string to have <=80 characters',
      'Invalid option: expected one of "birthday"|"wedding"',
      `Unexpected token '<', "<!doctype "... is not valid JSON`,
      'Failed to fetch',
      'Not Found',
      '',
      undefined,
      null,
      42,
    ]) {
      expect(isUserText(text), String(text)).toBe(false);
    }
    // The fixed words of a template must all be there.
    expect(isUserText('File size too large!')).toBe(false);
  });

  it('falls back to the caller’s contract text', () => {
    expect(userText('Invalid input: expected array, received undefined', texts.sender.giftImageRequired)).toBe(texts.sender.giftImageRequired);
    expect(userText(texts.sender.invalidCode, texts.sender.generic)).toBe(texts.sender.invalidCode);
    expect(errorText(new TypeError('Failed to fetch'), texts.sender.uploadStorageFailed)).toBe(texts.sender.uploadStorageFailed);
    expect(errorText(new Error(texts.sender.messageLocked), texts.sender.generic)).toBe(texts.sender.messageLocked);
    expect(errorText('a string thrown', texts.sender.generic)).toBe(texts.sender.generic);
  });
});
