import { WEBHOOK_RETRY_WINDOW_MS, WEBHOOK_SIGNATURE_HEADER } from '@giftlens/contract/merchants';
import { occasionLabel, type Occasion } from '@giftlens/contract/occasions';
import type { Clock } from '../../adapters/clock.ts';
import type { Mailer } from '../../adapters/mail.ts';
import type { WhatsAppSender } from '../../adapters/whatsapp.ts';
import type { Db } from '../../db/database.ts';
import { jobMessageId } from '../../jobs/message-id.ts';
import { type JobHandler, type JobHandlers, PermanentJobError } from '../../jobs/runner.ts';
import { hmacHex, randomHex } from '../../lib/crypto.ts';
import { renderEmail } from '../../lib/email-layout.ts';
import { outboundRefusal } from '../../lib/outbound-url.ts';
import { findGift } from '../gifts/gifts.repository.ts';
import { findSenderById } from '../sender-auth/sender-auth.repository.ts';
import { webhookSecrets } from './merchant-admin.ts';
import { releaseIfDue } from './merchant-release.ts';
import * as repo from './merchants.repository.ts';
import { createRecordLinks } from './record-links.ts';

export interface MerchantJobDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  publicOrigin: string;
  sessionSecret: string;
  /** The WhatsApp Cloud API, when configured (a merchant gift's release sends there too). */
  whatsapp: WhatsAppSender | null;
  /** WEBHOOK_ALLOW_HTTP_HOSTS: hosts a webhook may reach over plain http, at any address (tests). */
  webhookAllowHttpHosts?: readonly string[];
  wakeJobs?: () => void;
}

/** How long one webhook call may take before it counts as failed (and is retried). */
const WEBHOOK_TIMEOUT_MS = 10_000;
const ANSWER_KEPT = 300;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (docs/merchant-api.md shows the check). */
export function webhookSignature(secret: string, body: string, now: Date): string {
  const t = Math.floor(now.getTime() / 1000);
  return `t=${t},v1=${hmacHex(secret, `${t}.${body}`)}`;
}

/** The buyer's e-mail: record the message for the recipient through the link, no account needed. */
export function buyerEmail(f: { brand: string; recipientName: string; occasion: string; buyerFirstName: string | null; url: string }) {
  return renderEmail({
    subject: `Record your message for ${f.recipientName}`,
    preheader: `Your gift from ${f.brand} can carry your video, voice or text message.`,
    heading: `Add your message to ${f.recipientName}'s gift`,
    paragraphs: [
      f.buyerFirstName ? `Hi ${f.buyerFirstName},` : 'Hello,',
      `${f.brand} is sending your ${f.occasion} gift to ${f.recipientName}. Record a video or voice message, or write a few words: when ${f.recipientName} photographs the gift, your message plays.`,
      'The link works until the gift is first opened; you can record again until then.',
    ],
    action: { label: 'Record your message', url: f.url },
  });
}

/** The first characters of an answer's body, never reading more than a few KB of it (a shop's endpoint may stream). */
async function answerStart(res: Response): Promise<string> {
  if (!res.body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    // Leaving the loop early cancels the rest of the stream.
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      chunks.push(Buffer.from(chunk));
      size += chunk.length;
      if (size >= 4 * ANSWER_KEPT) break;
    }
  } catch {
    // An answer cut off midway: what came is kept.
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, ANSWER_KEPT);
}

export function merchantJobs(deps: MerchantJobDeps): Pick<JobHandlers, 'merchant.webhook' | 'merchant.release' | 'merchant.buyer_mail'> {
  const { db, clock, mailer, publicOrigin } = deps;
  const secrets = webhookSecrets(deps.sessionSecret);
  const links = createRecordLinks(deps.sessionSecret, publicOrigin);
  const allowHttp = deps.webhookAllowHttpHosts ?? [];

  const webhook: JobHandler<'merchant.webhook'> = {
    async run({ webhookId }, ctx) {
      const hook = await repo.findWebhook(db, webhookId);
      if (!hook || hook.delivered_at) return;
      const merchant = await repo.findMerchant(db, hook.merchant_id);
      if (!merchant) return;
      const record = async (r: { status: number | null; answer: string | null; error: string | null }) =>
        repo.insertAttempt(db, { id: randomHex(16), webhook_id: hook.id, attempt: ctx.attempt, status_code: r.status, answer: r.answer, error: r.error, created_at: clock.now().toISOString() });
      // At least once, for a day: past it the event is given up (the timeline keeps every attempt).
      if (clock.now().getTime() - Date.parse(hook.created_at) > WEBHOOK_RETRY_WINDOW_MS) throw new PermanentJobError('Not delivered within a day.');
      const secret = secrets.open(merchant);
      if (!secret) throw new PermanentJobError('The webhook secret cannot be opened (SESSION_SECRET changed): rotate it.');
      const refusal = await outboundRefusal(merchant.webhook_url, allowHttp).catch((err: unknown) => `the host could not be resolved (${err instanceof Error ? err.message : String(err)})`);
      if (refusal) {
        await record({ status: null, answer: null, error: `Refused: ${refusal}` });
        throw new Error(`Webhook URL refused: ${refusal}`);
      }
      let res: Response;
      try {
        res = await fetch(merchant.webhook_url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'GiftLens-Webhooks/1', [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(secret, hook.body, clock.now()) },
          body: hook.body,
          redirect: 'manual',
          signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(WEBHOOK_TIMEOUT_MS)]),
        });
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        await record({ status: null, answer: null, error: error.slice(0, ANSWER_KEPT) });
        throw new Error(`Webhook not delivered: ${error}`);
      }
      const answer = await answerStart(res);
      await record({ status: res.status, answer, error: null });
      if (res.status < 200 || res.status >= 300) throw new Error(`The shop answered ${res.status}.`);
      await repo.markWebhookDelivered(db, hook.id, clock.now().toISOString());
    },
  };

  const release: JobHandler<'merchant.release'> = {
    async run({ giftId }) {
      if ((await releaseIfDue(db, clock.now(), giftId, deps.whatsapp !== null)) === 'released') deps.wakeJobs?.();
    },
  };

  const buyerMail: JobHandler<'merchant.buyer_mail'> = {
    async run({ giftId }, ctx) {
      const gift = await findGift(db, giftId);
      const buyer = gift ? await findSenderById(db, gift.sender_id) : undefined;
      const mg = await repo.findMerchantGift(db, giftId);
      const brand = await repo.brandOfGift(db, giftId);
      if (!gift || !buyer || !mg || !brand || mg.cancelled_at || gift.first_opened_at) return;
      await mailer.send({
        to: buyer.email,
        ...buyerEmail({
          brand: brand.display_name ?? brand.name,
          recipientName: gift.recipient_name,
          occasion: occasionLabel(gift.occasion as Occasion).toLowerCase(),
          buyerFirstName: buyer.first_name,
          url: links.url(giftId),
        }),
        messageId: jobMessageId('merchant-buyer', ctx.id, publicOrigin),
      });
    },
  };

  return { 'merchant.webhook': webhook, 'merchant.release': release, 'merchant.buyer_mail': buyerMail };
}
