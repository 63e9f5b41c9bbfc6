import { M } from '@giftlens/contract/messages';
import { RM } from '@giftlens/contract/recipient';
import { describe, expect, it } from 'vitest';
import { errorText, isUserText, userText } from './user-text.ts';

describe('which texts may reach a user', () => {
  it('takes every text of the contract, sender and recipient side', () => {
    for (const text of Object.values(M)) if (typeof text === 'string') expect(isUserText(text), text).toBe(true);
    for (const text of Object.values(RM)) if (typeof text === 'string') expect(isUserText(text), text).toBe(true);
  });

  it('takes the contract’s worded templates, filled in', () => {
    expect(isUserText(M.fileTooLarge('Premium plan', '30MB', '31.20'))).toBe(true);
    expect(isUserText(RM.apiError(503))).toBe(true);
    expect(isUserText(RM.unableToRecord('Permission denied'))).toBe(true);
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
    expect(userText('Invalid input: expected array, received undefined', M.giftImageRequired)).toBe(M.giftImageRequired);
    expect(userText(M.invalidCode, M.generic)).toBe(M.invalidCode);
    expect(errorText(new TypeError('Failed to fetch'), M.uploadStorageFailed)).toBe(M.uploadStorageFailed);
    expect(errorText(new Error(M.messageLocked), M.generic)).toBe(M.messageLocked);
    expect(errorText('a string thrown', M.generic)).toBe(M.generic);
  });
});
