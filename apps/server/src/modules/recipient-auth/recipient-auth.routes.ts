import { GiftId } from '@giftlens/contract/common';
import { CheckEmailRequest, RecipientSendOtpRequest, RecipientVerifyOtpRequest } from '@giftlens/contract/recipient';
import { API } from '@giftlens/contract/routes';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { setSessionCookie } from '../../lib/http.ts';
import { RECIPIENT_SESSION_TTL_MS, type RecipientAuthService } from './recipient-auth.service.ts';
import { RECIPIENT_COOKIE, type RequireRecipient } from './recipient-session.ts';

export interface RecipientAuthRoutesOptions {
  service: RecipientAuthService;
  requireRecipient: RequireRecipient;
  secureCookies: boolean;
  rateLimit: { max: number; timeWindow: number };
}

const GiftParams = z.object({ giftId: GiftId });
const RecipientParams = z.object({ recipientId: z.string().min(1).max(64) });
const tags = ['recipient'];

export function recipientAuthRoutes(app: FastifyInstance, opts: RecipientAuthRoutesOptions, done: (err?: Error) => void) {
  const { service, requireRecipient } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const config = { rateLimit: opts.rateLimit };

  api.post(
    API.checkEmail,
    { config, schema: { tags, summary: 'Does this address have a gift?', body: CheckEmailRequest } },
    async (request) => service.checkEmail(request.body.email),
  );

  api.post(
    API.sendOtp,
    { config, schema: { tags, summary: 'Mail a 6-digit code to the recipient', body: RecipientSendOtpRequest } },
    async (request) => {
      const { resendAfter } = await service.sendCode(request.body.email, request.ip);
      return { success: true, resendAfter };
    },
  );

  api.post(
    API.verifyOtp,
    { config, schema: { tags, summary: 'Check the code and start a recipient session (cookie)', body: RecipientVerifyOtpRequest } },
    async (request, reply) => {
      const { token, ...result } = await service.verifyCode(request.body.email, request.body.code);
      setSessionCookie(reply, RECIPIENT_COOKIE, token, { secure: opts.secureCookies, maxAgeMs: RECIPIENT_SESSION_TTL_MS });
      return result;
    },
  );

  api.get(
    API.verifyGift(':giftId'),
    { config, schema: { tags, summary: 'The gift link’s greeting: the name and whether the gift is ready', params: GiftParams } },
    async (request) => service.verifyGift(request.params.giftId),
  );

  api.get(
    API.recipient(':recipientId'),
    {
      preValidation: requireRecipient.hook,
      schema: { tags, summary: 'The session recipient’s name', params: RecipientParams },
    },
    async (request) => {
      const recipient = await requireRecipient(request);
      return { success: true, name: await service.recipientName(recipient, request.params.recipientId) };
    },
  );
  done();
}
