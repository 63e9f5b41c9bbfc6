import { expect, type APIRequestContext } from '@playwright/test';
import { contributionApi, InviteResponse, OwnContributionResponse } from '@giftlens/contract/group-gifts';
import { GiftSummaryResponse } from '@giftlens/contract/sender';
import { expectOk } from './api.ts';
import { waitForMail } from './mailbox.ts';
import { API, paths } from './paths.ts';

// The group gift's calls, as the organizer's panel and the contributor's page make them.

/** The organizer invites `emails` (the deadline: three days, the panel's default). */
export async function invite(sender: APIRequestContext, giftId: string, emails: string[]): Promise<void> {
  await expectOk(await sender.post(contributionApi.invitations(giftId), { data: { emails } }), InviteResponse);
}

/** The per-person link (its path) in the newest invitation to `address`. */
export async function invitationLink(mailDir: string, address: string): Promise<string> {
  const mail = await waitForMail(mailDir, address, { timeoutMs: 30_000 });
  const token = /\/contribute\/([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
  expect(token, `a contribution link in "${mail.subject}"`).toBeTruthy();
  return paths.contribute.href(token!);
}

/** A contributor's text message, through their link (`link` as invitationLink answers it). */
export async function contributeText(api: APIRequestContext, link: string, name: string, text: string): Promise<void> {
  const token = link.split('/').at(-1)!;
  await expectOk(await api.post(contributionApi.text(token), { data: { name, text } }), OwnContributionResponse);
}

/** The gift's 8-digit backup code, as its sender sees it. */
export async function backupCodeOf(sender: APIRequestContext, giftId: string): Promise<string> {
  const code = (await expectOk(await sender.get(API.senderGift(giftId)), GiftSummaryResponse)).gift.backupCode;
  expect(code, `gift ${giftId} has a backup code`).toMatch(/^\d{8}$/);
  return code!;
}
