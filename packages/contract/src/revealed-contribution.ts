/**
 * What the recipient's message page reads of a group gift, apart from group-gifts.ts (which re-exports it): the
 * recipient's pages and the contributor's page then load only the schemas they use.
 */
import * as z from 'zod/mini';

/** A group gift's message kinds. */
export const ContributionMessageType = z.enum(['video', 'audio', 'text']);
export type ContributionMessageType = z.infer<typeof ContributionMessageType>;

/** One of a group gift's other messages as the recipient's message page gets it (GiftMessageResponse.contributions). */
export const RevealedContribution = z.object({
  from: z.string(),
  messageType: ContributionMessageType,
  messageUrl: z.nullable(z.string()),
  posterUrl: z.nullable(z.string()),
  text: z.nullable(z.string()),
});
export type RevealedContribution = z.infer<typeof RevealedContribution>;
