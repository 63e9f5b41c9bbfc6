import { M } from '@giftlens/contract/messages';
import { API } from '@giftlens/contract/routes';
import {
  SendEmailRequest,
  SendWhatsappRequest,
  UpdateUserRequest,
  VerifyEmailRequest,
} from '@giftlens/contract/sender';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { clearSenderCookie, parse, type RequireSender, SENDER_COOKIE, setSenderCookie } from '../../lib/http.ts';
import { SESSION_TTL_MS, type SenderAuthService } from './sender-auth.service.ts';

export interface SenderAuthRoutesOptions {
  service: SenderAuthService;
  requireSender: RequireSender;
  secureCookies: boolean;
  rateLimit: { max: number; timeWindow: number };
}

const whatsappOff = () => new AppError(503, 'whatsapp_unavailable', M.whatsappUnavailable);

export function senderAuthRoutes(app: FastifyInstance, opts: SenderAuthRoutesOptions) {
  const { service, requireSender } = opts;
  const limited = { config: { rateLimit: opts.rateLimit } };

  app.post(API.sendEmail, limited, async (request) => {
    const { email } = parse(SendEmailRequest, request.body);
    const { resendAfter } = await service.sendEmailCode(email);
    return { success: true, resendAfter };
  });

  app.post(API.verifyEmail, limited, async (request, reply) => {
    const { email, code } = parse(VerifyEmailRequest, request.body);
    const result = await service.verifyEmailCode(email, code);
    setSenderCookie(reply, result.token, { secure: opts.secureCookies, maxAgeMs: SESSION_TTL_MS });
    return { success: true, isNewUser: result.isNewUser, firstName: result.firstName };
  });

  // WhatsApp verification is switched off: the calls exist and say so.
  app.post(API.sendWhatsapp, limited, (request) => {
    parse(SendWhatsappRequest, request.body);
    throw whatsappOff();
  });
  app.post(API.verifyWhatsapp, limited, () => {
    throw whatsappOff();
  });

  app.post(API.updateUser, limited, async (request) => {
    const sender = await requireSender(request);
    await service.updateUser(sender, parse(UpdateUserRequest, request.body));
    return { success: true };
  });

  app.post(API.logout, async (request, reply) => {
    await service.signOut(request.cookies[SENDER_COOKIE]);
    clearSenderCookie(reply, opts.secureCookies);
    return { success: true };
  });

  app.post(API.logoutEverywhere, async (request, reply) => {
    const sender = await requireSender(request);
    await service.signOutEverywhere(sender);
    clearSenderCookie(reply, opts.secureCookies);
    return { success: true };
  });

  app.get(API.me, async (request) => {
    const sender = await requireSender(request);
    return { success: true, email: sender.email, firstName: sender.first_name };
  });
}
