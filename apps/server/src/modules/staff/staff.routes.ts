import { GiftId } from '@giftlens/contract/common';
import {
  STAFF_SESSION_TTL_MS,
  StaffExtendRequest,
  StaffReasonRequest,
  StaffResetTotpRequest,
  StaffSendCodeRequest,
  StaffTotpConfirmRequest,
  StaffVerifyRequest,
  staffApi,
  staffTexts,
} from '@giftlens/contract/staff';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { parse, requestCookie, SENDER_COOKIE, setSessionCookie } from '../../lib/http.ts';
import type { RateLimit } from '../sender-auth/sender-session.ts';
import { STAFF_ENROL_TTL_MS, type StaffAuthService, type StaffMember } from './staff-auth.service.ts';
import type { StaffService } from './staff.service.ts';
import type { StaffMerchantsService } from './staff-merchants.service.ts';
import { merchantTexts, StaffCreateMerchantRequest, StaffCreateMerchantResponse, StaffUpdateMerchantRequest, staffMerchantApi } from '@giftlens/contract/merchants';
import { multipartRoutes, readMultipart } from '../../lib/multipart.ts';

export const STAFF_COOKIE = 'gl_staff';
export const STAFF_ENROL_COOKIE = 'gl_staff_enrol';
/** Staff cookies go only to the staff API. */
const COOKIE_PATH = '/api/staff';

const GiftParams = z.object({ giftId: GiftId });
const MerchantParams = z.object({ merchantId: z.string().regex(/^[0-9a-f]{32}$/, { message: merchantTexts.merchantNotFound }) });
const DeliveryParams = z.object({ giftId: GiftId, deliveryId: z.string().regex(/^[0-9a-f]{32}$/, { message: staffTexts.deliveryNotFound }) });
const JobParams = z.object({ jobId: z.string().regex(/^[0-9a-f]{32}$/, { message: staffTexts.jobNotFound }) });
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const SearchQuery = z.object({ q: z.string().max(254, { message: staffTexts.queryInvalid }).regex(/^[^\u0000-\u001f\u007f]*$/, { message: staffTexts.queryInvalid }) });
const AuditQuery = z.object({ giftId: z.string().regex(/^[0-9a-f]{32}$/).optional() });

/**
 * The staff console's API (decision 051), registered only when STAFF_EMAILS names someone. Every call but sign-in
 * needs a staff session (its own cookie, 8 h, never a sender's or a recipient's: a sender's session is a 403).
 */
export function staffRoutes(
  app: FastifyInstance,
  opts: { auth: StaffAuthService; service: StaffService; merchants: StaffMerchantsService; secureCookies: boolean; rateLimit: RateLimit },
  done: (err?: Error) => void,
) {
  const { auth, service, secureCookies } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff'];
  const limited = { config: { rateLimit: opts.rateLimit } };
  const seen = new WeakMap<FastifyRequest, StaffMember>();

  async function requireStaff(request: FastifyRequest): Promise<StaffMember> {
    const known = seen.get(request);
    if (known) return known;
    const member = await auth.memberForToken(requestCookie(request, STAFF_COOKIE));
    if (!member) {
      // Signed in as a sender or a recipient, not as staff: forbidden, not merely unauthenticated.
      if (requestCookie(request, SENDER_COOKIE) || requestCookie(request, 'gl_recipient')) throw new AppError(403, 'staff_only', staffTexts.staffOnly);
      throw new AppError(401, 'unauthorized', staffTexts.signedOut);
    }
    seen.set(request, member);
    return member;
  }
  const staffOnly = { preValidation: async (request: FastifyRequest) => void (await requireStaff(request)) };
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');
  const signIn = (reply: FastifyReply, token: string) => {
    reply.clearCookie(STAFF_ENROL_COOKIE, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: secureCookies });
    setSessionCookie(reply, STAFF_COOKIE, token, { secure: secureCookies, maxAgeMs: STAFF_SESSION_TTL_MS, path: COOKIE_PATH });
  };

  api.post(staffApi.sendCode, { ...limited, schema: { tags, summary: 'E-mail a sign-in code (the same answer for any address)', body: StaffSendCodeRequest } }, async (request) =>
    auth.sendCode(request.body.email, request.ip),
  );
  api.post(
    staffApi.verify,
    { ...limited, schema: { tags, summary: 'Check the e-mail code (and the authenticator code): a session, or the first enrolment', body: StaffVerifyRequest } },
    async (request, reply) => {
      noStore(reply);
      const { body, session, enrolment } = await auth.verify(request.body.email, request.body.code, request.body.totp);
      if (session) signIn(reply, session);
      if (enrolment) setSessionCookie(reply, STAFF_ENROL_COOKIE, enrolment, { secure: secureCookies, maxAgeMs: STAFF_ENROL_TTL_MS, path: COOKIE_PATH });
      return body;
    },
  );
  api.post(
    staffApi.totpConfirm,
    { ...limited, schema: { tags, summary: 'The first authenticator code: completes the enrolment and signs in', body: StaffTotpConfirmRequest } },
    async (request, reply) => {
      const { session } = await auth.confirmTotp(requestCookie(request, STAFF_ENROL_COOKIE), request.body.totp);
      signIn(reply, session);
      return { success: true, signedIn: true, totpRequired: false, totpEnrolment: null };
    },
  );
  api.get(staffApi.me, { ...staffOnly, schema: { tags, summary: 'The signed-in staff member' } }, async (request, reply) => {
    noStore(reply);
    const me = await requireStaff(request);
    return { success: true, email: me.email, expiresAt: me.expiresAt };
  });
  api.post(staffApi.logout, { schema: { tags, summary: 'Sign out (ends this staff session)' } }, async (request, reply) => {
    await auth.signOut(requestCookie(request, STAFF_COOKIE));
    reply.clearCookie(STAFF_COOKIE, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: secureCookies });
    return { success: true };
  });

  api.get(staffApi.gifts, { ...staffOnly, schema: { tags, summary: 'Find gifts by e-mail, gift id, order id or payment id', querystring: SearchQuery } }, async (request, reply) => {
    noStore(reply);
    return { success: true, gifts: await service.search(request.query.q) };
  });
  api.get(staffApi.gift(':giftId'), { ...staffOnly, schema: { tags, summary: 'A gift’s details and timeline (no message content)', params: GiftParams } }, async (request, reply) => {
    noStore(reply);
    return service.gift(request.params.giftId);
  });
  api.post(staffApi.message(':giftId'), { ...staffOnly, schema: { tags, summary: 'The message’s content (audited with the reason)', params: GiftParams, body: StaffReasonRequest } }, async (request, reply) => {
    noStore(reply);
    return service.openMessage(await requireStaff(request), request.params.giftId, request.body.reason);
  });
  api.post(staffApi.extend(':giftId'), { ...staffOnly, schema: { tags, summary: 'Extend validity by days and/or add scans', params: GiftParams, body: StaffExtendRequest } }, async (request) =>
    service.extend(await requireStaff(request), request.params.giftId, request.body),
  );
  api.post(staffApi.refund(':giftId'), { ...staffOnly, schema: { tags, summary: 'Refund in full through the provider; the gift no longer opens', params: GiftParams, body: StaffReasonRequest } }, async (request) =>
    service.refund(await requireStaff(request), request.params.giftId, request.body.reason),
  );
  api.post(staffApi.takedown(':giftId'), { ...staffOnly, schema: { tags, summary: 'Take the gift down for abuse', params: GiftParams, body: StaffReasonRequest } }, async (request) =>
    service.takedown(await requireStaff(request), request.params.giftId, request.body.reason),
  );
  api.post(staffApi.liftTakedown(':giftId'), { ...staffOnly, schema: { tags, summary: 'Lift a take-down (audited): the gift opens and can be changed again', params: GiftParams, body: StaffReasonRequest } }, async (request) =>
    service.liftTakedown(await requireStaff(request), request.params.giftId, request.body.reason),
  );
  api.post(
    staffApi.resend(':giftId', ':deliveryId'),
    { ...staffOnly, schema: { tags, summary: 'Send a failed or sent delivery again now', params: DeliveryParams, body: StaffReasonRequest } },
    async (request) => service.resend(await requireStaff(request), request.params.giftId, request.params.deliveryId, request.body.reason),
  );
  api.get(staffApi.jobs, { ...staffOnly, schema: { tags, summary: 'Jobs by kind and state, the oldest due job’s lag, dead jobs' } }, async (_request, reply) => {
    noStore(reply);
    return service.queue();
  });
  api.post(staffApi.retryJob(':jobId'), { ...staffOnly, schema: { tags, summary: 'Run a dead job again', params: JobParams, body: StaffReasonRequest } }, async (request) =>
    service.retryJob(await requireStaff(request), request.params.jobId, request.body.reason),
  );
  api.get(staffApi.members, { ...staffOnly, schema: { tags, summary: 'The staff team and whose authenticator is enrolled' } }, async (request, reply) => {
    noStore(reply);
    return service.members(await requireStaff(request));
  });
  api.post(
    staffApi.resetTotp,
    { ...staffOnly, schema: { tags, summary: 'Reset a colleague’s second factor (a lost phone): their next sign-in enrols again', body: StaffResetTotpRequest } },
    async (request, reply) => {
      noStore(reply);
      return service.resetTotp(await requireStaff(request), request.body.email, request.body.reason);
    },
  );
  // ---------- merchants (decision 058) ----------
  const merchants = opts.merchants;
  const merchantTags = ['staff', 'merchants'];
  api.post(
    staffMerchantApi.merchants,
    {
      ...staffOnly,
      schema: {
        tags: merchantTags,
        summary: 'Create a merchant: its API key and webhook secret are shown once in the answer',
        body: StaffCreateMerchantRequest,
        response: { 200: StaffCreateMerchantResponse },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return merchants.create(await requireStaff(request), request.body);
    },
  );
  api.get(staffMerchantApi.merchants, { ...staffOnly, schema: { tags: merchantTags, summary: 'Every merchant, its brand and its active key’s prefix' } }, async (_request, reply) => {
    noStore(reply);
    return merchants.list();
  });
  api.patch(
    staffMerchantApi.merchant(':merchantId'),
    { ...staffOnly, schema: { tags: merchantTags, summary: 'Set the brand’s display name and colour, or the webhook URL', params: MerchantParams, body: StaffUpdateMerchantRequest } },
    async (request) => merchants.update(await requireStaff(request), request.params.merchantId, request.body),
  );
  api.post(
    staffMerchantApi.rotateKey(':merchantId'),
    { ...staffOnly, schema: { tags: merchantTags, summary: 'A new API key (shown once); every earlier key stops working', params: MerchantParams, body: StaffReasonRequest } },
    async (request, reply) => {
      noStore(reply);
      return merchants.rotateKey(await requireStaff(request), request.params.merchantId, request.body.reason);
    },
  );
  api.post(
    staffMerchantApi.revokeKey(':merchantId'),
    { ...staffOnly, schema: { tags: merchantTags, summary: 'Revoke every API key of the merchant (a leak)', params: MerchantParams, body: StaffReasonRequest } },
    async (request) => merchants.revokeKeys(await requireStaff(request), request.params.merchantId, request.body.reason),
  );
  api.post(
    staffMerchantApi.rotateWebhookSecret(':merchantId'),
    { ...staffOnly, schema: { tags: merchantTags, summary: 'A new webhook secret (shown once)', params: MerchantParams, body: StaffReasonRequest } },
    async (request, reply) => {
      noStore(reply);
      return merchants.rotateWebhookSecret(await requireStaff(request), request.params.merchantId, request.body.reason);
    },
  );
  multipartRoutes(app, (scope) => {
    scope.withTypeProvider<ZodTypeProvider>().put(
      staffMerchantApi.logo(':merchantId'),
      { ...staffOnly, schema: { tags: merchantTags, summary: 'The brand’s logo (multipart: logo file, reason field): PNG, JPEG or WebP', params: MerchantParams, consumes: ['multipart/form-data'] } },
      async (request) => {
        const who = await requireStaff(request);
        let logo: Buffer | null = null;
        const refused = () => new AppError(400, 'logo_invalid', merchantTexts.logoInvalid, { field: 'logo' });
        const fields = await readMultipart(request, { fileSize: 5 * 1024 * 1024, files: 1, fields: 4, fieldSize: 1000 }, { invalid: refused, fileTooLarge: refused, tooMany: refused, fieldTooLong: () => new AppError(400, 'reason_too_long', staffTexts.reasonTooLong) }, async (part) => {
          if (part.fieldname === 'logo') logo = await part.toBuffer();
        });
        const { reason } = parse(StaffReasonRequest, { reason: fields.reason });
        return merchants.setLogo(who, request.params.merchantId, logo, reason);
      },
    );
  });
  api.get(
    staffMerchantApi.usage(':merchantId'),
    { ...staffOnly, schema: { tags: merchantTags, summary: 'Gifts created and first opened per month (UTC), newest first', params: MerchantParams } },
    async (request, reply) => {
      noStore(reply);
      return merchants.usage(request.params.merchantId);
    },
  );
  api.get(
    staffMerchantApi.usageCsv(':merchantId'),
    { ...staffOnly, schema: { tags: merchantTags, summary: 'The same counts as CSV, for the invoice (month,gifts_created,gifts_opened)', params: MerchantParams } },
    async (request, reply) => {
      const csv = await merchants.usageCsv(request.params.merchantId);
      return reply
        .header('cache-control', 'no-store')
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="merchant-${request.params.merchantId}-usage.csv"`)
        .send(csv);
    },
  );

  api.get(staffApi.audit, { ...staffOnly, schema: { tags, summary: 'The newest audit entries (of a gift, or all)', querystring: AuditQuery } }, async (request, reply) => {
    noStore(reply);
    return service.auditTrail(request.query.giftId ?? null);
  });
  done();
}
