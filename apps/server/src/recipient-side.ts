import type { FastifyInstance } from 'fastify';
import type { Clock } from './adapters/clock.ts';
import type { Mailer } from './adapters/mail.ts';
import type { MediaProcessor } from './adapters/media-processor.ts';
import type { MediaStorage } from './adapters/media-storage.ts';
import type { Recogniser } from './adapters/recogniser.ts';
import type { Db } from './db/database.ts';
import { demoRoutes } from './modules/demo/demo.routes.ts';
import { createDemoService } from './modules/demo/demo.service.ts';
import { messagesRoutes } from './modules/messages/messages.routes.ts';
import { createMessagesService } from './modules/messages/messages.service.ts';
import { reactionsRoutes } from './modules/reactions/reactions.routes.ts';
import { createReactionsService } from './modules/reactions/reactions.service.ts';
import { recipientAuthRoutes } from './modules/recipient-auth/recipient-auth.routes.ts';
import { createRecipientAuthService } from './modules/recipient-auth/recipient-auth.service.ts';
import { recipientGuard } from './modules/recipient-auth/recipient-session.ts';
import { createRevealGrants } from './modules/scans/reveal-grants.ts';
import { scansRoutes } from './modules/scans/scans.routes.ts';
import { createScansService, type ScanFailureLimit } from './modules/scans/scans.service.ts';

export interface RecipientSideDeps {
  db: Db;
  media: MediaStorage;
  mailer: Mailer;
  clock: Clock;
  recogniser: Recogniser;
  sessionSecret: string;
  secureCookies: boolean;
  authRateLimit: { max: number; timeWindow: number };
  /** Folders holding the web app's public files, searched for demo gift images. */
  demoImageDirs: string[];
  scanFailureLimit?: ScanFailureLimit;
  /** Per-client limit on every scan call (process-scan, demo scan); default 60 a minute. */
  scanRateLimit?: { max: number; timeWindow: number };
  mediaProcessor: MediaProcessor | null;
  /** Per-client limit on the reaction calls; default 30 a minute. */
  reactionRateLimit?: { max: number; timeWindow: number };
}

/** The recipient's calls: e-mail code and session, gift link, scans, the message, reactions, and the demo. */
export function recipientSideRoutes(app: FastifyInstance, deps: RecipientSideDeps): void {
  const { db, media, clock, recogniser } = deps;
  const scanRateLimit = deps.scanRateLimit ?? { max: 60, timeWindow: 60_000 };
  const recipientAuth = createRecipientAuthService({
    db,
    mailer: deps.mailer,
    clock,
    sessionSecret: deps.sessionSecret,
    log: (line) => app.log.warn(line),
  });
  const requireRecipient = recipientGuard((token) => recipientAuth.recipientForToken(token));
  const grants = createRevealGrants({ db, clock, secureCookies: deps.secureCookies });
  const messages = createMessagesService({ db, media, clock });

  recipientAuthRoutes(app, {
    service: recipientAuth,
    requireRecipient,
    secureCookies: deps.secureCookies,
    rateLimit: deps.authRateLimit,
  });
  scansRoutes(app, {
    service: createScansService({ db, media, clock, recogniser, messages, failureLimit: deps.scanFailureLimit }),
    grants,
    requireRecipient,
    rateLimit: scanRateLimit,
  });
  messagesRoutes(app, { service: messages, grants });
  reactionsRoutes(app, {
    service: createReactionsService({ db, media, clock, processor: deps.mediaProcessor }),
    grants,
    rateLimit: deps.reactionRateLimit ?? { max: 30, timeWindow: 60_000 },
  });
  demoRoutes(app, {
    service: createDemoService({ recogniser, dirs: deps.demoImageDirs }),
    rateLimit: scanRateLimit,
  });
}
