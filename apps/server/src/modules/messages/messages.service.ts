import { SIGNED_URL_TTL_MS } from '@giftlens/contract/constants';
import type { GiftMessageResponse } from '@giftlens/contract/recipient';
import type { z } from 'zod';
import type { ScanGiftDetails } from '@giftlens/contract/recipient';
import type { Clock } from '../../adapters/clock.ts';
import type { MediaStorage } from '../../adapters/media-storage.ts';
import type { Db } from '../../db/database.ts';
import { giftNotFound } from '../../lib/errors.ts';
import { listGiftPhotos } from '../gifts/gift-photos.repository.ts';
import * as gifts from '../gifts/gifts.repository.ts';
import type { Gift } from '../gifts/gifts.table.ts';
import { findRecipientByEmail } from '../recipient-auth/recipient-auth.repository.ts';
import { findSenderById } from '../sender-auth/sender-auth.repository.ts';
import type { Sender } from '../sender-auth/sender-auth.table.ts';
import { findReactionForGift } from '../reactions/reactions.repository.ts';
import { planOf, validUntil, withdrawn } from '../gifts/gift-plan.ts';
import { giftUnavailable } from '../scans/gift-rules.ts';

export interface MessagesDeps {
  db: Db;
  media: MediaStorage;
  clock: Clock;
  /** A group gift's contributions and combined MP4 as the recipient sees them (modules/group-gifts). */
  group: (gift: Gift) => Promise<Pick<GiftMessageResponse, 'contributions' | 'combinedDownloadUrl'>>;
}

/** How the recipient sees the sender: the first name given at sign-up, else the e-mail's local part. */
export const senderNameOf = (sender: Sender | undefined) => sender?.first_name ?? sender?.email.split('@')[0] ?? 'Someone';

/** The web route of the message page. */
export const giftMessagePage = (giftId: string) => `/gift-message/${giftId}`;

export function createMessagesService({ db, media, clock, group }: MessagesDeps) {
  /** Signed URLs are short-lived (5 minutes): a copied link stops working soon after the reveal. */
  const signed = (key: string | null) => (key ? media.signedUrl(key, SIGNED_URL_TTL_MS, clock.now()) : null);
  const messageUrl = (gift: Gift) => (gift.message_type === 'text' ? null : signed(gift.message_path));

  return {
    /** The scan response's gift details, right after a matching scan. */
    async revealDetails(gift: Gift): Promise<z.infer<typeof ScanGiftDetails>> {
      const sender = await findSenderById(db, gift.sender_id);
      const [photo] = await listGiftPhotos(db, gift.id);
      const senderName = senderNameOf(sender);
      return {
        giftMessageUrl: giftMessagePage(gift.id),
        gifts_message_url: giftMessagePage(gift.id),
        messageUrl: messageUrl(gift),
        senderName,
        sender_name: senderName,
        senderEmail: sender?.email ?? '',
        recipientName: gift.recipient_name,
        recipient_name: gift.recipient_name,
        recipientEmail: gift.recipient_email,
        giftImageUrl: signed(photo?.storage_path ?? null),
      };
    },

    /** The message page's details; the caller has checked the reveal grant. */
    async giftMessage(giftId: string): Promise<GiftMessageResponse> {
      const gift = await gifts.findGift(db, giftId);
      if (!gift) throw giftNotFound();
      // Refunded or taken down since the reveal: a grant still alive opens nothing more (decision 051).
      if (withdrawn(gift)) throw giftUnavailable();
      const plan = planOf(gift);
      const sender = await findSenderById(db, gift.sender_id);
      const recipient = gift.recipient_email ? await findRecipientByEmail(db, gift.recipient_email) : undefined;
      const reaction = await findReactionForGift(db, gift.id);
      const { contributions, combinedDownloadUrl } = await group(gift);
      // Keepsake (issue 40): a plan with downloads lets the recipient save the message under a name for people.
      const keepsake =
        plan.downloads && gift.message_type !== 'text' && gift.message_state === 'ready' && gift.message_path
          ? media.signedUrl(gift.message_path, SIGNED_URL_TTL_MS, clock.now(), { download: true, name: `Message from ${senderNameOf(sender)}` })
          : null;
      const until = validUntil(gift, plan);
      return {
        messageDownloadUrl: keepsake,
        validUntil: until === null ? null : new Date(until).toISOString(),
        success: true,
        giftId: gift.id,
        messageType: gift.message_type ?? 'text',
        messageUrl: messageUrl(gift),
        posterUrl: gift.message_type === 'video' ? signed(gift.message_poster_path) : null,
        text: gift.message_type === 'text' ? gift.message_text : null,
        senderName: senderNameOf(sender),
        reactionsEnabled: plan.reactions,
        hasReaction: reaction?.file_path != null,
        planDetails: { planName: plan.name },
        recipientId: recipient?.id ?? null,
        recipientName: gift.recipient_name,
        recipientEmail: gift.recipient_email,
        contributions,
        combinedDownloadUrl,
      };
    },
  };
}

export type MessagesService = ReturnType<typeof createMessagesService>;
