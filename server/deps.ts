import type { Config } from "./config.ts";
import type { Db } from "./db/client.ts";
import { outboxStore } from "./data/outbox.ts";
import { sandboxChargeStore } from "./data/payments.ts";
import { rateTable, taxRateReader } from "./data/quoteOrders.ts";
import { trackingReader } from "./data/shipments.ts";
import { viewCounter, type ReportViewCounter } from "./data/reportLinks.ts";
import { primaryReads, type ReadRouter } from "./data/readRouter.ts";
import { answerCache, type AnswerCache } from "./core/answerCache.ts";
import { pushGate, type KeyLimits, type PushGate } from "./core/keyLimiter.ts";
import { walkGate, walkLimits, type WalkGate } from "./core/walkGate.ts";
import { noAnchors, type AuditAnchors } from "./services/auditAnchors.ts";
import { createCarriers, type Carriers } from "./services/carriers.ts";
import { createMailer, type Mailer } from "./services/mail.ts";
import { createSandboxGateway, type PaymentGateway } from "./services/payments.ts";
import { createTableRates, type ShippingRates } from "./services/shippingRates.ts";
import { createTableTax, type TaxService } from "./services/tax.ts";
import type { Site } from "./static/site.ts";
import { defaultLiveHub, type PortalLiveHub } from "./live.ts";

/** What a caller of buildApp passes: the database and configuration, and what a test may swap. */
export interface AppDeps {
  db: Db;
  config: Config;
  /** The built static site; absent when another host serves dist/. */
  site?: Site | undefined;
  /** The clock; tests pin it. */
  now?: () => Date;
  /** Outbox + SMTP by default; tests may pass their own. */
  mailer?: Mailer;
  /** Shipment tracking; the database's activity rows by default. */
  carriers?: Carriers;
  /** The card processor; the sandbox gateway (test cards, charges kept in the database) by default. */
  payments?: PaymentGateway;
  /** The live readings hub; index.ts passes its own so it can close it at shutdown. */
  live?: PortalLiveHub;
  /** Report views written in batches; index.ts passes its own so it can flush it at shutdown. */
  views?: ReportViewCounter;
  /** The answer cache (tests that need to see into it); one sized from the config otherwise. */
  answers?: AnswerCache;
  /** Pushes per device key on this instance; the product's limits by default. */
  pushLimiter?: PushGate;
  /** The alert scheduler of this instance (index.ts); kicked when a push moves an alarm. */
  alertWork?: AlertWork;
  /** Whole-window reads of public reports on this instance; the product's limits by default. */
  walks?: WalkGate;
  /** Where the public reads run (index.ts opens the replica's); the primary by default. */
  reads?: ReadRouter;
  /** Where sealed audit heads are kept outside the database (index.ts: a file); none by default. */
  anchors?: AuditAnchors;
}

/** Asks the alert scheduler to run soon (core/alertClock.ts); a no-op where none runs. */
export interface AlertWork {
  kick(): void;
}

/**
 * The dependencies every route receives, resolved once in buildApp: every field is present,
 * so no route picks its own default (one clock, one mailer, one gateway).
 */
export interface Deps {
  db: Db;
  config: Config;
  site: Site | undefined;
  now: () => Date;
  mailer: Mailer;
  carriers: Carriers;
  payments: PaymentGateway;
  live: PortalLiveHub;
  /** Shipping rates and sales tax: the built-in tables (shipping_options, tax_rates). */
  shippingRates: ShippingRates;
  tax: TaxService;
  /** The anonymous public reads' microcache (emptied by every write on this instance). */
  answers: AnswerCache;
  views: ReportViewCounter;
  /** Pushes per device key on this instance (routes/devicePush.ts). */
  pushLimiter: PushGate;
  alertWork: AlertWork;
  /** Whole-window reads (compliance figures, PDF) at a time, per process and per client. */
  walks: WalkGate;
  /** The public reads' database: a fresh replica, else the primary (data/readRouter.ts). */
  reads: ReadRouter;
  /** The audit chains' heads kept outside the database (services/auditAnchors.ts). */
  anchors: AuditAnchors;
}

/**
 * What one device key may push on one instance: four pushes at once (a retry beside a slow push), 50 a second after a burst
 * of 100, and 1 MB a second after a burst of 4 MB, so one device (or a stolen key) cannot
 * take the database from the others (docs/decisions.md, "Pushes per device key").
 */
export const PUSH_LIMITS: KeyLimits = {
  inFlight: 4,
  burst: 100,
  perSecond: 50,
  burstBytes: 4 * 1024 * 1024,
  bytesPerSecond: 1024 * 1024,
  maxKeys: 100_000,
};

/**
 * Answers kept at once: a few hundred shared links busy at the same second, and the session
 * checks of the people signed in that second (about 2 KB each: 10 MB at most).
 */
const ANSWER_CACHE_ENTRIES = 5000;

/** Fills in the defaults: the real clock, and the outbox mailer (SMTP when configured). */
export function resolveDeps(input: AppDeps): Deps {
  const now = input.now ?? (() => new Date());
  return {
    db: input.db,
    config: input.config,
    site: input.site,
    now,
    mailer: input.mailer ?? createMailer(outboxStore(input.db), input.config.smtpUrl, now),
    carriers: input.carriers ?? createCarriers(trackingReader(input.db)),
    payments: input.payments ?? createSandboxGateway(sandboxChargeStore(input.db), now),
    live: input.live ?? defaultLiveHub(input.db, now),
    shippingRates: createTableRates(rateTable(input.db)),
    tax: createTableTax(taxRateReader(input.db)),
    answers:
      input.answers ?? answerCache({ ttlMs: input.config.answerCacheMs, maxEntries: ANSWER_CACHE_ENTRIES }),
    views: input.views ?? viewCounter(input.db),
    pushLimiter:
      input.pushLimiter ?? pushGate({ limits: PUSH_LIMITS, unverifiedPerClient: 8, maxKnown: 100_000 }),
    alertWork: input.alertWork ?? { kick: () => {} },
    walks: input.walks ?? walkGate(walkLimits(input.config.reportWalksPerClient)),
    reads: input.reads ?? primaryReads(input.db),
    anchors: input.anchors ?? noAnchors,
  };
}
