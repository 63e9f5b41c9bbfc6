import { GiftId } from '@giftlens/contract/common';
import {
  ContributionConfirmRequest,
  ContributionSendCodeRequest,
  ContributionTextRequest,
  ContributionUploadUrlRequest,
  ContributionVerifyRequest,
  contributionApi,
  groupTexts,
  InviteRequest,
  ReorderContributionRequest,
} from '@giftlens/contract/group-gifts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { perSender, type RateLimit, type RequireSender } from '../sender-auth/sender-session.ts';
import type { GroupGiftsService } from './group-gifts.service.ts';

const GiftParams = z.object({ giftId: GiftId });
const ContributionParams = z.object({ giftId: GiftId, id: z.string().regex(/^[0-9a-f]{32}$/, { message: 'Contribution not found.' }) });
const InvitationParams = z.object({ giftId: GiftId, id: z.string().regex(/^[0-9a-f]{32}$/, { message: groupTexts.invitationNotFound }) });
// Any string: a token of the wrong shape is the same 404 as an unknown one (the service checks it).
const TokenParams = z.object({ token: z.string().max(200) });

/**
 * Group gifts (README "Group gifts"): the organizer's calls under /api/gift-sender (their session), the
 * contributor's under /api/contributions/{token} (the link is the credential; the shared link asks for a code).
 */
export function groupGiftsRoutes(
  app: FastifyInstance,
  opts: { service: GroupGiftsService; requireSender: RequireSender; rateLimit: RateLimit; confirmRateLimit: RateLimit },
  done: (err?: Error) => void,
) {
  const { service, requireSender } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = { preValidation: requireSender.hook };
  const organizer = ['group gifts (organizer)'];
  const contributor = ['group gifts (contributor)'];
  const limited = { config: { rateLimit: opts.rateLimit } };

  api.post(
    contributionApi.invitations(':giftId'),
    { ...signedIn, config: perSender(requireSender, opts.rateLimit), schema: { tags: organizer, summary: 'Invite contributors by e-mail (and set the deadline)', params: GiftParams, body: InviteRequest } },
    async (request) => service.invite(await requireSender(request), request.params.giftId, request.body),
  );
  api.get(
    contributionApi.invitations(':giftId'),
    { ...signedIn, schema: { tags: organizer, summary: 'The invitations, their states, and the group', params: GiftParams } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.listInvitations(await requireSender(request), request.params.giftId);
    },
  );
  api.get(
    contributionApi.contributions(':giftId'),
    { ...signedIn, schema: { tags: organizer, summary: 'The contributions in order (signed URLs to play them), and the group', params: GiftParams } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.listContributions(await requireSender(request), request.params.giftId);
    },
  );
  api.delete(
    contributionApi.invitation(':giftId', ':id'),
    { ...signedIn, schema: { tags: organizer, summary: 'Take an invitee’s place back: their link stops, their contribution goes', params: InvitationParams } },
    async (request) => service.removeInvitation(await requireSender(request), request.params.giftId, request.params.id),
  );
  api.post(
    contributionApi.sharedLink(':giftId'),
    { ...signedIn, schema: { tags: organizer, summary: 'A new shared link; the old one stops', params: GiftParams } },
    async (request) => service.rotateSharedLink(await requireSender(request), request.params.giftId),
  );
  api.post(
    contributionApi.close(':giftId'),
    { ...signedIn, schema: { tags: organizer, summary: 'Close contributions now', params: GiftParams } },
    async (request) => service.close(await requireSender(request), request.params.giftId),
  );
  api.patch(
    contributionApi.contribution(':giftId', ':id'),
    { ...signedIn, schema: { tags: organizer, summary: 'Move a contribution to another position', params: ContributionParams, body: ReorderContributionRequest } },
    async (request) => service.reorder(await requireSender(request), request.params.giftId, request.params.id, request.body.position),
  );
  api.delete(
    contributionApi.contribution(':giftId', ':id'),
    { ...signedIn, schema: { tags: organizer, summary: 'Remove a contribution (and its files)', params: ContributionParams } },
    async (request) => {
      await service.remove(await requireSender(request), request.params.giftId, request.params.id);
      return { success: true };
    },
  );

  api.get(
    contributionApi.page(':token'),
    { ...limited, schema: { tags: contributor, summary: 'What the contributor sees: for whom, from whom, the deadline, their own message', params: TokenParams } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.page(request.params.token);
    },
  );
  api.post(
    contributionApi.sendCode(':token'),
    { ...limited, schema: { tags: contributor, summary: 'The shared link: e-mail a code to the visitor', params: TokenParams, body: ContributionSendCodeRequest } },
    async (request) => service.sendCode(request.params.token, request.body.email, request.ip),
  );
  api.post(
    contributionApi.verify(':token'),
    { ...limited, schema: { tags: contributor, summary: 'The shared link: check the code; answers the visitor’s own link token', params: TokenParams, body: ContributionVerifyRequest } },
    async (request) => service.verify(request.params.token, request.body.email, request.body.code),
  );
  api.post(
    contributionApi.uploadUrl(':token'),
    { ...limited, schema: { tags: contributor, summary: 'A signed URL to PUT the contribution’s file to', params: TokenParams, body: ContributionUploadUrlRequest } },
    async (request) => service.uploadUrl(request.params.token, request.body),
  );
  api.post(
    contributionApi.confirm(':token'),
    { config: { rateLimit: opts.confirmRateLimit }, schema: { tags: contributor, summary: 'Check the uploaded file and make it the contribution', params: TokenParams, body: ContributionConfirmRequest } },
    async (request) => service.confirm(request.params.token, request.body),
  );
  api.post(
    contributionApi.text(':token'),
    { ...limited, schema: { tags: contributor, summary: 'A text contribution instead of a recording', params: TokenParams, body: ContributionTextRequest } },
    async (request) => service.saveText(request.params.token, request.body),
  );
  api.delete(
    contributionApi.page(':token'),
    { ...limited, schema: { tags: contributor, summary: 'Delete the contributor’s own message', params: TokenParams } },
    async (request) => {
      await service.deleteOwn(request.params.token);
      return { success: true };
    },
  );
  done();
}
