import { RECIPIENT_NAME_MAX } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { isUserText } from '../../../lib/user-text.ts';
import { detailsResolver, userDetailsResolver } from './form-schemas.ts';

/** The messages a resolver gives for these values, by field. */
async function messages<V extends FieldValues, O>(resolver: Resolver<V, unknown, O>, values: unknown) {
  const result = await resolver(values as V, undefined, { fields: {}, shouldUseNativeValidation: false });
  const errors = result.errors as FieldErrors;
  return Object.fromEntries(Object.entries(errors).map(([field, error]) => [field, error?.message]));
}

const photo = () => new File([new Uint8Array([1, 2, 3])], 'gift.jpg', { type: 'image/jpeg' });

describe('the gift details form speaks the contract’s words', () => {
  it('says the photo is required when none was added, even before the field was ever set', async () => {
    const filled = { occasion: 'birthday', recipientName: 'Ravi', recipientEmail: 'ravi@example.com' };
    expect(await messages(detailsResolver, filled)).toEqual({ giftImages: texts.sender.giftImageRequired });
    expect(await messages(detailsResolver, { ...filled, giftImages: [] })).toEqual({ giftImages: texts.sender.giftImageRequired });
  });

  it('names each missing field in the spec’s words', async () => {
    expect(await messages(detailsResolver, { occasion: '', recipientName: '', recipientEmail: '', giftImages: [] })).toEqual({
      occasion: texts.sender.occasionRequired,
      recipientName: texts.sender.recipientNameRequired,
      recipientEmail: texts.sender.recipientContactRequired,
      giftImages: texts.sender.giftImageRequired,
    });
  });

  it('gives only contract texts for anything else that can be wrong', async () => {
    const found = await messages(detailsResolver, {
      occasion: 'not-an-occasion',
      recipientName: 'R'.repeat(RECIPIENT_NAME_MAX + 1),
      recipientEmail: 'not an address',
      giftImages: [photo(), photo(), photo(), photo()],
    });
    expect(Object.keys(found).sort()).toEqual(['giftImages', 'occasion', 'recipientEmail', 'recipientName']);
    for (const [field, text] of Object.entries(found)) expect(isUserText(text), `${field}: ${JSON.stringify(text)}`).toBe(true);
    expect(found.recipientEmail).toBe(texts.sender.invalidEmail);
    expect(found.giftImages).toBe(texts.sender.tooManyGiftImages);
  });

  it('lets a complete form through', async () => {
    const values = { occasion: 'birthday' as const, recipientName: ' Ravi ', recipientEmail: 'RAVI@example.com', giftImages: [photo()] };
    const result = await detailsResolver(values, undefined, { fields: {}, shouldUseNativeValidation: false });
    expect(result.errors).toEqual({});
    expect(result.values).toMatchObject({ recipientName: 'Ravi', recipientEmail: 'ravi@example.com' });
  });
});

describe('the name form speaks the contract’s words', () => {
  it('missing, empty, too long', async () => {
    expect(await messages(userDetailsResolver, {})).toEqual({ firstName: texts.sender.firstNameRequired });
    expect(await messages(userDetailsResolver, { firstName: '  ' })).toEqual({ firstName: texts.sender.firstNameRequired });
    expect(await messages(userDetailsResolver, { firstName: 'A'.repeat(51) })).toEqual({ firstName: texts.sender.firstNameTooLong });
  });
});
