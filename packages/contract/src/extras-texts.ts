// The sender's words of issue 40 (the printable card, more scans, reminders), apart from texts.ts: only the screens
// that show them load them, not every page's first bundle (route budgets, decision 046). No zod here.

/** The printable card for the box; what the card itself says is in gift-card.ts. */
export const giftCardTexts = {
  notPaid: 'A gift gets its printable card once it is paid.',
  offer: 'Print a card for the box',
  intro: 'A card to print and put in the box: the link, a QR code and the backup code, so the recipient knows what to do.',
  language: 'Language of the card',
  preview: (recipientName: string) => `Preview of the card for ${recipientName}`,
  open: 'Download the PDF to print',
  caption: 'The credit-card size card. The PDF holds it and a folded A6 card on one A4 sheet, with cut marks.',
  fileName: (recipientName: string) => `Card for ${recipientName}.pdf`,
} as const;

/** More scans for a paid gift. */
export const topUpTexts = {
  count: 'Scans are added 5 at a time.',
  notPaid: 'Scans can be added to a paid gift only.',
  unlimited: 'This gift’s plan has unlimited scans.',
  ended: 'This gift’s plan has ended: scans can be added only while it is valid.',
  withdrawn: 'This gift was refunded or taken down: no scans can be added.',
  offer: (scans: number, price: string) => `Add ${scans} scans for ${price}`,
  ranOut: (recipientName: string) => `${recipientName} has used every scan. Add more so the gift opens again.`,
  added: (scans: number) => `${scans} scans added. The gift opens again.`,
} as const;

/** The gift's reminders switch. */
export const reminderTexts = {
  label: 'Reminders',
  note: (recipientName: string) =>
    `If the gift is not opened 48 hours after its link went out, we e-mail you once; and ${recipientName} once, a day before the plan ends (when we know their e-mail).`,
} as const;
