import { groupTexts } from '@giftlens/contract/group-gifts';
import { occasionLabel, type Occasion } from '@giftlens/contract/occasions';
import { renderEmail } from '../../lib/email-layout.ts';

/** A deadline as an e-mail says it: "Sat, 29 Nov 2026, 16:00 UTC" (the reader's own zone is unknown here). */
export const deadlineText = (iso: string) =>
  `${new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }).format(new Date(iso))} UTC`;

const occasionOf = (occasion: string) => occasionLabel(occasion as Occasion);

interface InviteFacts {
  organizerName: string;
  recipientName: string;
  occasion: string;
  deadline: string;
  url: string;
}

export function invitationEmail(f: InviteFacts) {
  return renderEmail({
    subject: `${f.organizerName} invites you to add a message for ${f.recipientName}`,
    preheader: `Record a short video, a voice message or write a few words before ${deadlineText(f.deadline)}.`,
    heading: `Add your message for ${f.recipientName}`,
    paragraphs: [
      `${f.organizerName} is preparing a gift for ${f.recipientName} (${occasionOf(f.occasion)}) and asks you to add a message to it.`,
      `When ${f.recipientName} photographs the gift, your message plays after ${f.organizerName}’s. Record a video, a voice message, or write a few words: no account, no app.`,
      `Please add it before ${deadlineText(f.deadline)}.`,
    ],
    action: { label: 'Add your message', url: f.url },
    footnote: 'This link is yours: anyone with it can add or change your message, so please do not forward it.',
  });
}

export function reminderEmail(f: InviteFacts & { hours: number }) {
  return renderEmail({
    subject: `${f.hours} hours left to add your message for ${f.recipientName}`,
    preheader: `${f.organizerName}’s group gift closes ${deadlineText(f.deadline)}.`,
    heading: `${f.hours} hours left`,
    paragraphs: [
      `${f.organizerName} invited you to add a message to ${f.recipientName}’s gift. Contributions close ${deadlineText(f.deadline)}.`,
      'It takes a minute: record a video, a voice message, or write a few words.',
    ],
    action: { label: 'Add your message', url: f.url },
    footnote: 'You get at most two reminders, and none once your message is in.',
  });
}

export function openedEmail(f: { recipientName: string; organizerName: string }) {
  return renderEmail({
    subject: `${f.recipientName} opened the gift with your message`,
    preheader: `${f.recipientName} photographed the gift and the messages played.`,
    heading: 'The gift was opened',
    paragraphs: [`${f.recipientName} just photographed ${f.organizerName}’s gift, and the messages, yours among them, played.`],
    footnote: 'You asked to be told when the gift was opened. This is the only e-mail you get about it.',
  });
}

export function summaryEmail(f: { senderFirstName: string | null; recipientName: string; added: number; invited: number; url: string }) {
  const hi = f.senderFirstName ? `Hi ${f.senderFirstName},` : 'Hello,';
  const nobody = f.added === 0;
  return renderEmail({
    subject: nobody ? `Nobody added a message to ${f.recipientName}’s gift` : `Contributions closed: ${groupTexts.summary(f.added, f.invited)}`,
    preheader: nobody ? `${f.recipientName} will see only your own message.` : `${f.recipientName} will see your message and ${f.added} more.`,
    heading: nobody ? 'Nobody added a message' : 'Contributions are closed',
    paragraphs: nobody
      ? [hi, `Contributions to ${f.recipientName}’s gift are closed, and nobody added a message. When ${f.recipientName} opens the gift, only your own message plays.`]
      : [hi, `Contributions to ${f.recipientName}’s gift are closed: ${groupTexts.summary(f.added, f.invited)}. They play after your own message, in the order you set.`],
    action: { label: 'See the messages', url: f.url },
  });
}

export function emptyWarningEmail(f: { senderFirstName: string | null; recipientName: string; invited: number; deadline: string; url: string }) {
  const hi = f.senderFirstName ? `Hi ${f.senderFirstName},` : 'Hello,';
  return renderEmail({
    subject: `Nobody has added a message to ${f.recipientName}’s gift yet`,
    preheader: `Contributions close ${deadlineText(f.deadline)}.`,
    heading: 'No messages yet',
    paragraphs: [
      hi,
      `You invited ${f.invited} ${f.invited === 1 ? 'person' : 'people'} to add a message to ${f.recipientName}’s gift, and nobody has yet. Contributions close ${deadlineText(f.deadline)}; after that, or as soon as ${f.recipientName} opens the gift, only your own message plays.`,
      'You can copy the invitation link into a group chat, invite more people, or move the deadline.',
    ],
    action: { label: 'Invite or remind', url: f.url },
  });
}

export function deadlineMovedEmail(f: InviteFacts) {
  return renderEmail({
    subject: `New deadline for your message to ${f.recipientName}`,
    preheader: `${f.organizerName}’s group gift now closes ${deadlineText(f.deadline)}.`,
    heading: 'The deadline moved',
    paragraphs: [
      `${f.organizerName} moved the deadline for messages to ${f.recipientName}’s gift: please add yours before ${deadlineText(f.deadline)}.`,
    ],
    action: { label: 'Add your message', url: f.url },
    footnote: 'Your link is the same as in the invitation.',
  });
}
