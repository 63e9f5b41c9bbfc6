/**
 * Group gifts: the organizer (a gift's sender) invites contributors, each adds a video, voice or text message, and
 * the recipient's one scan reveals them all (README "Group gifts", docs/architecture.md).
 */
import * as z from 'zod/mini';
import { Code, Email, GiftId, PLAIN_NAME } from './common.ts';
import { FIRST_NAME_MAX, TEXT_MESSAGE_MAX } from './constants.ts';
import type { PlanId } from './plans.ts';
import { ContributionMessageType } from './revealed-contribution.ts';
import { MessageType } from './sender.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Contributions stay open this long after the first invitation unless the organizer picks another deadline. */
export const GROUP_DEFAULT_DEADLINE_MS = 3 * DAY_MS;
/** A deadline must leave contributors at least this long. */
export const GROUP_MIN_DEADLINE_MS = 60 * 60 * 1000;
/** Invitees who have not contributed are reminded this many hours before the deadline (once each). */
export const GROUP_REMINDER_HOURS = [48, 24] as const;
/** E-mail addresses one invitation call may name. */
export const GROUP_INVITE_BATCH_MAX = 50;
/**
 * A moved deadline (issue 37): each invitee who has not contributed gets at most one "new deadline" e-mail per
 * `noticeGapMs`, naming the deadline as it is when it goes; the organizer may move it `moves` times per `windowMs`
 * (429 with Retry-After beyond).
 */
export const GROUP_DEADLINE_CHANGES = { noticeGapMs: 4 * 60 * 60 * 1000, moves: 5, windowMs: DAY_MS } as const;

/** How many contributors (invited or joined through the shared link) a gift's plan allows; 0: no group. */
export const GROUP_CONTRIBUTOR_LIMITS: Record<PlanId, number> = {
  basic_in: 0,
  premium_in: 10,
  premium_us: 10,
  lifetime_in: 50,
  lifetime_us: 50,
};
export const groupContributorLimit = (planId: PlanId) => GROUP_CONTRIBUTOR_LIMITS[planId];

/** A contribution's base64url token in a link: 256 random bits (43 characters). */
export const ContributionToken = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/));

export const groupTexts = {
  notAllowed: 'Group gifts are not part of the India Basic plan. Choose Premium or Lifetime to invite others.',
  notPaid: 'Please complete payment before inviting others.',
  inviteSelf: 'You are the organizer: your own message is the gift’s message. Invite the others.',
  tooManyContributors: (limit: number, planName: string) =>
    `Your ${planName} plan allows up to ${limit} contributors.`,
  emailsRequired: 'Please enter at least one e-mail address.',
  invalidEmailOf: (email: string) => `Please check this e-mail address: ${email}`,
  tooManyEmails: `Please invite at most ${GROUP_INVITE_BATCH_MAX} people at once.`,
  deadlineInvalid: 'Please choose a valid deadline.',
  deadlineTooSoon: 'Please give contributors at least an hour.',
  deadlineAfterPlan: 'The deadline must be before the gift’s plan ends.',
  closed: 'Contributions to this gift are closed.',
  organizerClosed: 'Contributions are closed, so nobody can be invited any more.',
  tooManyDeadlineMoves: 'The deadline was changed several times today. Please try again later.',
  linkNotFound: 'This contribution link is not valid. Please ask the organizer for a new one.',
  contributionNotFound: 'Contribution not found.',
  invitationNotFound: 'Invitation not found.',
  nameRequired: 'Please enter your name.',
  nameTooLong: `Your name can be up to ${FIRST_NAME_MAX} characters.`,
  nameInvalid: 'Please write your name in letters, without special control characters.',
  textInvalid: 'Your message contains characters we cannot store. Please remove them and try again.',
  textTooLong: `Your message can be up to ${TEXT_MESSAGE_MAX} characters.`,
  textRequired: 'Please write a message first.',
  openedLocked: 'The gift has been opened, so its messages can no longer change.',
  notSharedLink: 'This link is already your own: no code is needed.',
  organizerOwnLink: 'You are the organizer: your own message is the gift’s message.',
  deadlineMoved: (deadline: string) => `The deadline moved to ${deadline}.`,
  positionInvalid: 'Please choose a position within the list.',
  sharedLinkNeedsEmail: 'Please confirm your e-mail address first.',
  contributed: 'Thank you! Your message was added.',
  deleted: 'Your message was removed.',
  closedNotice: 'Contributions are closed. Thank you for taking part.',
  combinedProcessing: 'Making the combined video…',
  combinedFailed: 'The combined video could not be made.',
  fromName: (name: string) => `From ${name}`,
  summary: (added: number, invited: number) => `${added} of ${invited} added`,
} as const;

/** invited → reminded (a reminder went) → contributed (their message is in). */
export const InvitationState = z.enum(['invited', 'reminded', 'contributed']);
export type InvitationState = z.infer<typeof InvitationState>;

export const Invitation = z.object({
  id: z.string(),
  email: z.string(),
  state: InvitationState,
  /** True for someone who joined through the shared link (the address they confirmed with a code). */
  viaSharedLink: z.boolean(),
  createdAt: z.string(),
});
export type Invitation = z.infer<typeof Invitation>;

/** The combined MP4 (title cards, one size, loudness evened), made by a render job once contributions close. */
export const CombinedState = z.enum(['none', 'processing', 'ready', 'failed']);
export type CombinedState = z.infer<typeof CombinedState>;

/** What the organizer's panel shows of the group as a whole. */
export const GroupState = z.object({
  /** Contributions may still be added (before the deadline, not closed early, gift not yet opened). */
  open: z.boolean(),
  /** null until the first invitation (or the shared link) starts the group. */
  deadline: z.nullable(z.string()),
  closedAt: z.nullable(z.string()),
  /** The shared invitation link (absolute), anyone with it confirms an e-mail code first. */
  inviteUrl: z.string(),
  contributorLimit: z.number().check(z.int()),
  invitedCount: z.number().check(z.int()),
  contributedCount: z.number().check(z.int()),
  combined: z.object({
    state: CombinedState,
    /** Signed download URL where the plan includes downloads and it is ready. */
    downloadUrl: z.nullable(z.string()),
  }),
});
export type GroupState = z.infer<typeof GroupState>;

// POST /api/gift-sender/gifts/{giftId}/invitations
export const InviteRequest = z.object({
  emails: z.array(z.string()).check(
    z.minLength(1, { error: groupTexts.emailsRequired }),
    z.maxLength(GROUP_INVITE_BATCH_MAX, { error: groupTexts.tooManyEmails }),
  ),
  /** ISO-8601; default 3 days from the first invitation; later calls may move it. */
  deadline: z.optional(z.string().check(z.maxLength(40, { error: groupTexts.deadlineInvalid }))),
});
export type InviteRequest = z.infer<typeof InviteRequest>;
export const InviteResponse = z.object({
  success: z.literal(true),
  invitations: z.array(z.pick(Invitation, { id: true, email: true, state: true })),
  group: GroupState,
});
export type InviteResponse = z.infer<typeof InviteResponse>;

// GET /api/gift-sender/gifts/{giftId}/invitations
export const InvitationsResponse = z.object({ success: z.literal(true), invitations: z.array(Invitation), group: GroupState });
export type InvitationsResponse = z.infer<typeof InvitationsResponse>;

// ContributionMessageType and RevealedContribution live in revealed-contribution.ts (re-exported here), so the
// recipient's pages, which read them with every message, do not load the group schemas.
export { ContributionMessageType, RevealedContribution } from './revealed-contribution.ts';
/** processing: being converted (not shown to the recipient until ready); failed: the file could not be read. */
export const ContributionState = z.enum(['processing', 'ready', 'failed']);
export type ContributionState = z.infer<typeof ContributionState>;

export const Contribution = z.object({
  id: z.string(),
  name: z.string(),
  messageType: ContributionMessageType,
  state: ContributionState,
  /** 1-based, the order the recipient sees them in after the organizer's own message. */
  position: z.number().check(z.int()),
  /** Signed, short-lived URLs for the organizer to play it. */
  messageUrl: z.nullable(z.string()),
  posterUrl: z.nullable(z.string()),
  text: z.nullable(z.string()),
  email: z.string(),
  createdAt: z.string(),
});
export type Contribution = z.infer<typeof Contribution>;

// GET /api/gift-sender/gifts/{giftId}/contributions
export const ContributionsResponse = z.object({ success: z.literal(true), contributions: z.array(Contribution), group: GroupState });
export type ContributionsResponse = z.infer<typeof ContributionsResponse>;

// PATCH /api/gift-sender/gifts/{giftId}/contributions/{id}: answers the list in its new order
export const ReorderContributionRequest = z.object({ position: z.number().check(z.int({ error: groupTexts.positionInvalid }), z.gte(1, { error: groupTexts.positionInvalid })) });
export type ReorderContributionRequest = z.infer<typeof ReorderContributionRequest>;

// POST /api/gift-sender/gifts/{giftId}/contributions/close
export const GroupStateResponse = z.object({ success: z.literal(true), group: GroupState });
export type GroupStateResponse = z.infer<typeof GroupStateResponse>;

// The contributor's side --------------------------------------------------------------------------------------------

/** The contributor's own message, as they see it to preview, replace or delete it. */
export const OwnContribution = z.object({
  id: z.string(),
  name: z.string(),
  messageType: ContributionMessageType,
  state: ContributionState,
  /** Why a failed file could not be used. */
  error: z.nullable(z.string()),
  messageUrl: z.nullable(z.string()),
  posterUrl: z.nullable(z.string()),
  text: z.nullable(z.string()),
  notifyWhenOpened: z.boolean(),
});
export type OwnContribution = z.infer<typeof OwnContribution>;

// GET /api/contributions/{token}
export const ContributionPageResponse = z.object({
  success: z.literal(true),
  recipientName: z.string(),
  organizerName: z.string(),
  occasion: z.string(),
  deadline: z.nullable(z.string()),
  open: z.boolean(),
  /** The shared invitation link: the visitor confirms an e-mail code first (send-code, verify). */
  shared: z.boolean(),
  /** The invitee's address (null on the shared link). */
  email: z.nullable(z.string()),
  /** The largest file the gift's plan takes. */
  maxFileBytes: z.number().check(z.int()),
  planName: z.string(),
  mine: z.nullable(OwnContribution),
});
export type ContributionPageResponse = z.infer<typeof ContributionPageResponse>;

export const ContributorName = z
  .string({ error: groupTexts.nameRequired })
  .check(
    z.trim(),
    z.minLength(1, { error: groupTexts.nameRequired }),
    z.maxLength(FIRST_NAME_MAX, { error: groupTexts.nameTooLong }),
    z.regex(PLAIN_NAME, { error: groupTexts.nameInvalid }),
  );

// POST /api/contributions/{token}/send-code and /verify (the shared link only): the verify answers the visitor's own
// per-person token; the page then continues at /contribute/{token}.
export const ContributionSendCodeRequest = z.object({ email: Email });
export type ContributionSendCodeRequest = z.infer<typeof ContributionSendCodeRequest>;
export const ContributionVerifyRequest = z.object({ email: Email, code: Code });
export type ContributionVerifyRequest = z.infer<typeof ContributionVerifyRequest>;
export const ContributionVerifyResponse = z.object({ success: z.literal(true), token: ContributionToken });
export type ContributionVerifyResponse = z.infer<typeof ContributionVerifyResponse>;

// POST /api/contributions/{token}/upload-url, then PUT to uploadUrl, then POST …/confirm
export const ContributionUploadUrlRequest = z.object({
  fileType: z.string().check(z.minLength(1), z.maxLength(100)),
  fileName: z.string().check(z.minLength(1), z.maxLength(255)),
  messageType: MessageType,
  fileSize: z.optional(z.number().check(z.int(), z.positive())),
});
export type ContributionUploadUrlRequest = z.infer<typeof ContributionUploadUrlRequest>;
export const ContributionUploadUrlResponse = z.object({ success: z.literal(true), uploadUrl: z.string(), filePath: z.string() });
export type ContributionUploadUrlResponse = z.infer<typeof ContributionUploadUrlResponse>;

export const ContributionConfirmRequest = z.object({
  filePath: z.string().check(z.minLength(1)),
  messageType: MessageType,
  name: ContributorName,
  /** Tell me when the recipient opens the gift. */
  notifyWhenOpened: z.optional(z.boolean()),
});
export type ContributionConfirmRequest = z.infer<typeof ContributionConfirmRequest>;

// POST /api/contributions/{token}/text
export const ContributionTextRequest = z.object({
  text: z.string().check(
    z.trim(),
    z.minLength(1, { error: groupTexts.textRequired }),
    z.maxLength(TEXT_MESSAGE_MAX, { error: groupTexts.textTooLong }),
    // Line breaks and tabs are text; other control characters (a NUL first: PostgreSQL refuses it) are not.
    // eslint-disable-next-line no-control-regex -- control characters are what this refuses
    z.regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, { error: groupTexts.textInvalid }),
  ),
  name: ContributorName,
  notifyWhenOpened: z.optional(z.boolean()),
});
export type ContributionTextRequest = z.infer<typeof ContributionTextRequest>;

/** confirm and text answer the contribution as it now is. */
export const OwnContributionResponse = z.object({ success: z.literal(true), mine: OwnContribution });
export type OwnContributionResponse = z.infer<typeof OwnContributionResponse>;

// DELETE /api/contributions/{token}: the contributor removes their own message (until contributions close).

// On the recipient's message page (GET /api/verification-recipient/gift-message/{giftId}): `contributions`, each a
// RevealedContribution (revealed-contribution.ts).

export const contributionApi = {
  invitations: (giftId: string) => `/api/gift-sender/gifts/${giftId}/invitations`,
  /** DELETE: the organizer takes an invitee's place back (their link stops, their contribution goes). */
  invitation: (giftId: string, id: string) => `/api/gift-sender/gifts/${giftId}/invitations/${id}`,
  /** POST: a new shared link; the old one stops. */
  sharedLink: (giftId: string) => `/api/gift-sender/gifts/${giftId}/shared-link`,
  contributions: (giftId: string) => `/api/gift-sender/gifts/${giftId}/contributions`,
  contribution: (giftId: string, id: string) => `/api/gift-sender/gifts/${giftId}/contributions/${id}`,
  close: (giftId: string) => `/api/gift-sender/gifts/${giftId}/contributions/close`,
  page: (token: string) => `/api/contributions/${token}`,
  sendCode: (token: string) => `/api/contributions/${token}/send-code`,
  verify: (token: string) => `/api/contributions/${token}/verify`,
  uploadUrl: (token: string) => `/api/contributions/${token}/upload-url`,
  confirm: (token: string) => `/api/contributions/${token}/confirm`,
  text: (token: string) => `/api/contributions/${token}/text`,
} as const;

/** The web route a contributor opens. */
export const contributePath = (token: string) => `/contribute/${token}`;

export type { GiftId };
