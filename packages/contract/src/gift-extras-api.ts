/**
 * Issue 40's sender paths (the printable card, the reminders switch), apart from API: only the screens that call them
 * load them, not every page's first bundle (route budgets, decision 046).
 */
export const GIFT_EXTRAS_API = {
  giftCard: (giftId: string) => `/api/gift-sender/gifts/${giftId}/card.pdf`,
  giftReminders: (giftId: string) => `/api/gift-sender/gifts/${giftId}/reminders`,
} as const;
