import { MAX_REFERENCE_PHOTOS, RECIPIENT_NAME_MAX } from '@giftlens/contract/constants';
import { texts } from '@giftlens/contract/texts';
import { OCCASIONS } from '@giftlens/contract/occasions';
import { FirstName } from '@giftlens/contract/sender';
import * as z from 'zod/mini';
import { contractResolver, type FieldTexts } from '../../../lib/form-resolver.ts';

/** The name step: the contract's first name (required, at most 50 characters). */
export const UserDetailsForm = z.object({ firstName: FirstName });
export type UserDetailsFormIn = z.input<typeof UserDetailsForm>;
export type UserDetailsFormOut = z.output<typeof UserDetailsForm>;
const USER_DETAILS_TEXTS: FieldTexts<UserDetailsFormIn> = { firstName: texts.sender.firstNameRequired };
export const userDetailsResolver = contractResolver(UserDetailsForm, USER_DETAILS_TEXTS, texts.sender.saveUserFailed);

/** The gift details step: occasion, recipient, and one to three photos of the gift. */
export const DetailsForm = z.object({
  occasion: z.enum(OCCASIONS, { error: texts.sender.occasionRequired }),
  recipientName: z.string().check(z.trim(), z.minLength(1, { error: texts.sender.recipientNameRequired }), z.maxLength(RECIPIENT_NAME_MAX)),
  recipientEmail: z.pipe(
    z.string().check(z.trim(), z.toLowerCase(), z.minLength(1, { error: texts.sender.recipientContactRequired })),
    z.email({ error: texts.sender.invalidEmail }),
  ),
  giftImages: z
    .array(z.instanceof(File))
    .check(
      z.minLength(1, { error: texts.sender.giftImageRequired }),
      z.maxLength(MAX_REFERENCE_PHOTOS, { error: texts.sender.tooManyGiftImages }),
    ),
});
export type DetailsFormIn = z.input<typeof DetailsForm>;
export type DetailsFormOut = z.output<typeof DetailsForm>;
const DETAILS_TEXTS: FieldTexts<DetailsFormIn> = {
  occasion: texts.sender.occasionRequired,
  // Longer than the contract allows: the field stops at RECIPIENT_NAME_MAX characters, so only a missing name is left.
  recipientName: texts.sender.recipientNameRequired,
  recipientEmail: texts.sender.invalidEmail,
  giftImages: texts.sender.giftImageRequired,
};
export const detailsResolver = contractResolver(DetailsForm, DETAILS_TEXTS, texts.sender.createGiftFailed);
