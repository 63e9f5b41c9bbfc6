/**
 * A merchant's brand on the recipient's pages (issue 39, decision 058): small on purpose, as every recipient page
 * loads it (the rest of the merchant API's contract is in merchants.ts).
 */
import * as z from 'zod/mini';

/** A brand shown to the buyer and the recipient: its name, logo (a signed media URL) and colour. */
export const Brand = z.object({ name: z.string(), logoUrl: z.nullable(z.string()), colour: z.nullable(z.string()) });
export type Brand = z.infer<typeof Brand>;

export const GiftBrandResponse = z.object({
  success: z.literal(true),
  brand: z.nullable(Brand),
  /** The buyer's first name ("A message from Priya, with your order from Shop"); null for a sender's own gift or none given. */
  senderName: z.nullable(z.string()),
});
export type GiftBrandResponse = z.infer<typeof GiftBrandResponse>;

/** The brand of a gift (a merchant's; null for a sender's own), for the recipient's greeting, instructions and message pages. */
export const giftBrandApi = (giftId: string) => `/api/verification-recipient/brand/${giftId}`;
