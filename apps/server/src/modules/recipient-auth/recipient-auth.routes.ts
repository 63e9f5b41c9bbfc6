import { GiftId } from '@giftlens/contract/common';
import {
  CheckEmailRequest,
  RECIPIENT_API,
  RecipientSendOtpRequest,
  RecipientVerifyOtpRequest,
} from '@giftlens/contract/recipient';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parse, setSessionCookie } from '../../lib/http.ts';
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

export function recipientAuthRoutes(app: FastifyInstance, opts: RecipientAuthRoutesOptions) {
  const { service, requireRecipient } = opts;
  const limited = { config: { rateLimit: opts.rateLimit } };

  app.post(RECIPIENT_API.checkEmail, limited, async (request) => {
    const { email } = parse(CheckEmailRequest, request.body);
    return service.checkEmail(email);
  });

  app.post(RECIPIENT_API.sendOtp, limited, async (request) => {
    const { email } = parse(RecipientSendOtpRequest, request.body);
    const { resendAfter } = await service.sendCode(email);
    return { success: true, resendAfter };
  });

  app.post(RECIPIENT_API.verifyOtp, limited, async (request, reply) => {
    const { email, code } = parse(RecipientVerifyOtpRequest, request.body);
    const { token, ...result } = await service.verifyCode(email, code);
    setSessionCookie(reply, RECIPIENT_COOKIE, token, { secure: opts.secureCookies, maxAgeMs: RECIPIENT_SESSION_TTL_MS });
    return result;
  });

  app.get(RECIPIENT_API.verifyGift(':giftId'), limited, async (request) => {
    const { giftId } = parse(GiftParams, request.params);
    return service.verifyGift(giftId);
  });

  app.get(RECIPIENT_API.recipient(':recipientId'), async (request) => {
    const recipient = await requireRecipient(request);
    const { recipientId } = parse(RecipientParams, request.params);
    return { success: true, name: await service.recipientName(recipient, recipientId) };
  });
}
