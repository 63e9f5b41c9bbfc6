import { MAX_REFERENCE_PHOTOS, RECIPIENT_NAME_MAX } from '@giftlens/contract/constants';
import { M } from '@giftlens/contract/messages';
import { OCCASIONS } from '@giftlens/contract/occasions';
import { FirstName } from '@giftlens/contract/sender';
import { z } from 'zod';
import { contractResolver, type FieldTexts } from '../../../lib/form-resolver.ts';

/** The name step: the contract's first name (required, at most 50 characters). */
export const UserDetailsForm = z.object({ firstName: FirstName });
export type UserDetailsFormIn = z.input<typeof UserDetailsForm>;
export type UserDetailsFormOut = z.output<typeof UserDetailsForm>;
const USER_DETAILS_TEXTS: FieldTexts<UserDetailsFormIn> = { firstName: M.firstNameRequired };
export const userDetailsResolver = contractResolver(UserDetailsForm, USER_DETAILS_TEXTS, M.saveUserFailed);

/** The gift details step: occasion, recipient, and one to three photos of the gift. */
export const DetailsForm = z.object({
  occasion: z.enum(OCCASIONS, { error: M.occasionRequired }),
  recipientName: z.string().trim().min(1, { error: M.recipientNameRequired }).max(RECIPIENT_NAME_MAX),
  recipientEmail: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, { error: M.recipientContactRequired })
    .pipe(z.email({ error: M.invalidEmail })),
  giftImages: z
    .array(z.instanceof(File))
    .min(1, { error: M.giftImageRequired })
    .max(MAX_REFERENCE_PHOTOS, { error: M.tooManyGiftImages }),
});
export type DetailsFormIn = z.input<typeof DetailsForm>;
export type DetailsFormOut = z.output<typeof DetailsForm>;
const DETAILS_TEXTS: FieldTexts<DetailsFormIn> = {
  occasion: M.occasionRequired,
  // Longer than the contract allows: the field stops at RECIPIENT_NAME_MAX characters, so only a missing name is left.
  recipientName: M.recipientNameRequired,
  recipientEmail: M.invalidEmail,
  giftImages: M.giftImageRequired,
};
export const detailsResolver = contractResolver(DetailsForm, DETAILS_TEXTS, M.createGiftFailed);
