import { shareText } from '@giftlens/contract/scheduling';

/** WhatsApp's own share link: it opens the app (or WhatsApp Web) with the message ready to send to a chat. */
export function whatsAppShareUrl(senderFirstName: string | null, link: string): string {
  return `https://wa.me/?text=${encodeURIComponent(shareText(senderFirstName, link))}`;
}
