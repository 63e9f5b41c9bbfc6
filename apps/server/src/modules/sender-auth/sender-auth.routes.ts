import { texts } from '@giftlens/contract/texts';
import { API } from '@giftlens/contract/routes';
import {
  SendEmailRequest,
  SendWhatsappRequest,
  UpdateUserRequest,
  VerifyEmailRequest,
} from '@giftlens/contract/sender';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.ts';
import { clearSenderCookie, requestCookie, SENDER_COOKIE, setSenderCookie } from '../../lib/http.ts';
import { SESSION_TTL_MS, type SenderAuthService } from './sender-auth.service.ts';
import type { RequireSender } from './sender-session.ts';

export interface SenderAuthRoutesOptions {
  service: SenderAuthService;
  requireSender: RequireSender;
  secureCookies: boolean;
  rateLimit: { max: number; timeWindow: number };
}

const whatsappOff = () => new AppError(400, 'whatsapp_unavailable', texts.sender.whatsappUnavailable);
const tags = ['sender sign-in'];

export function senderAuthRoutes(app: FastifyInstance, opts: SenderAuthRoutesOptions, done: (err?: Error) => void) {
  const { service, requireSender } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const limited = { rateLimit: opts.rateLimit };
  const signedIn = { preValidation: requireSender.hook };

  api.post(
    API.sendEmail,
    { config: limited, schema: { tags, summary: 'Mail a 6-digit code to the sender', body: SendEmailRequest } },
    async (request) => {
      const { resendAfter } = await service.sendEmailCode(request.body.email, request.ip);
      return { success: true, resendAfter };
    },
  );

  api.post(
    API.verifyEmail,
    { config: limited, schema: { tags, summary: 'Check the code and start a sender session (cookie)', body: VerifyEmailRequest } },
    async (request, reply) => {
      const result = await service.verifyEmailCode(request.body.email, request.body.code);
      setSenderCookie(reply, result.token, { secure: opts.secureCookies, maxAgeMs: SESSION_TTL_MS });
      return { success: true, isNewUser: result.isNewUser, firstName: result.firstName };
    },
  );

  // WhatsApp verification is switched off: the calls exist and say so.
  api.post(
    API.sendWhatsapp,
    { config: limited, schema: { tags, summary: 'Switched off: answers 400 whatsapp_unavailable', body: SendWhatsappRequest } },
    () => {
      throw whatsappOff();
    },
  );
  api.post(
    API.verifyWhatsapp,
    { config: limited, schema: { tags, summary: 'Switched off: answers 400 whatsapp_unavailable' } },
    () => {
      throw whatsappOff();
    },
  );

  api.post(
    API.updateUser,
    { ...signedIn, config: limited, schema: { tags, summary: 'The first name (the session’s own sender)', body: UpdateUserRequest } },
    async (request) => {
      await service.updateUser(await requireSender(request), request.body);
      return { success: true };
    },
  );

  api.post(API.logout, { schema: { tags, summary: 'Sign out: revokes this session' } }, async (request, reply) => {
    await service.signOut(requestCookie(request, SENDER_COOKIE));
    clearSenderCookie(reply, opts.secureCookies);
    return { success: true };
  });

  api.post(
    API.logoutEverywhere,
    { ...signedIn, schema: { tags, summary: 'Sign out everywhere: revokes every session of the sender' } },
    async (request, reply) => {
      await service.signOutEverywhere(await requireSender(request));
      clearSenderCookie(reply, opts.secureCookies);
      return { success: true };
    },
  );

  api.get(API.me, { ...signedIn, schema: { tags, summary: 'The signed-in sender' } }, async (request) => {
    const sender = await requireSender(request);
    return { success: true, email: sender.email, firstName: sender.first_name };
  });
  done();
}
