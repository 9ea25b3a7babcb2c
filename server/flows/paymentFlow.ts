import { setTimeout as sleep } from "node:timers/promises";
import { ApiError } from "../core/errors.ts";
import { safeEqual } from "../core/crypto.ts";
import {
  completeAttempt,
  failAttempt,
  findAttempt,
  pendingAttempt,
  startAttempt,
  takeOverAttempt,
  touchAttempt,
  type AttemptDetails,
  type AttemptRow,
  type StoredAnswer,
} from "../data/paymentAttempts.ts";
import { consume, type Limit } from "../data/rateLimits.ts";
import type { Deps } from "../deps.ts";
import { pageLinkOrigin } from "../http/links.ts";
import { countCharge } from "../http/metrics.ts";
import { PAYMENT_IN_PROGRESS } from "../../src/api/payments.ts";
import type { CardInput, Charge, ChargeRequest, ChargeResult, Refusal } from "../services/payments.ts";
import { receiptMail, type ReceiptFacts } from "../services/receiptMail.ts";
import type { Cents } from "../../src/domain/brand.ts";
import { CARD_MESSAGES } from "../../src/domain/card.ts";
import { ORDER_PREFIX, publicOrderRef } from "../../src/domain/order.ts";
import { appendAudit, type Actor } from "../data/audit.ts";
import { recordSubscription } from "../data/grantAccess.ts";
import { pathOf } from "../../src/api/endpoint.ts";
import { getPaymentReceipt } from "../../src/api/orders.ts";
import { publicOrderPath } from "../../src/domain/paths.ts";
import { quoteNumber } from "../../src/domain/quote.ts";

/** A transaction handle, named through Deps (this layer does not import db/). */
type Db = Deps["db"];

/*
 * One guest payment, charged at most once per idempotency key (docs/decisions.md, "Guest
 * payments"). The attempt row is written before the gateway is called and finished in one
 * transaction with the payment's rows; the gateway itself keeps one charge per key. So a
 * retry, a double click, 20 parallel submits or a process killed anywhere in between all end
 * with one charge and the first answer.
 */

export const KEY_REUSED = "This payment was already submitted with different details.";
export const AMOUNT_CHANGED = "The amount due has changed. Reload the page to see the new amount.";
export const STILL_PROCESSING = PAYMENT_IN_PROGRESS;
/** A pending attempt untouched this long belonged to a process that died; a retry finishes it. */
export const STALE_MS = 60_000;
/**
 * How often a request waiting for the gateway touches its attempt. Without it a gateway slower
 * than STALE_MS let another key take the live attempt over, fail it and charge again: two
 * charges, the first one recorded nowhere.
 */
export const HEARTBEAT_MS = STALE_MS / 4;
const WAIT_MS = 15_000;
const POLL_MS = 50;

/** An error answer in the spec's envelope. */
export const refusalAnswer = (
  status: number,
  message: string,
  field: string | null = null,
): StoredAnswer => ({
  status,
  body: { success: false, data: [{ field, message }] },
});

/** A gateway refusal: 402, the message beside its field (processing errors have none). */
const declined = (r: Refusal) => refusalAnswer(402, r.message, r.field);

/** What a successful payment mails: to whom, and which order. */
export interface Receipt {
  to: string;
  orderId: number;
  validationId: string;
  paymentId: number;
  charge: Charge;
  paidAt: Date;
}

/** One payment as the flow sees it; the routes build one for an order and one for a quote. */
export interface PaymentPlan {
  key: string;
  /** The record paid, 'order:5003' or 'quote:1001': one pending attempt per subject. */
  subject: string;
  fingerprint: string;
  details: AttemptDetails;
  card: CardInput;
  /** Counted per new attempt (card testing): per client address and per record. */
  limits: Limit[];
  /** The answer when another key is paying the same record right now. */
  busy: string;
  /** Who pays, for the audit trail: the signed-in person; a guest is named by the receipt address. */
  payer?: Actor;
  /** Reads the record again: the amount to charge, or the refusal to answer (409). */
  price(): Promise<{ amount: Cents; currency: number } | StoredAnswer>;
  /** Writes a charge's rows inside the attempt's transaction; the answer and the receipt. */
  record(
    tx: Db,
    key: string,
    charge: Charge,
    details: AttemptDetails,
  ): Promise<{ answer: StoredAnswer; value: Receipt | null }>;
}

const isAnswer = (v: object): v is StoredAnswer => "status" in v;
const isStale = (row: AttemptRow, now: Date) => now.getTime() - row.updatedAt.getTime() > STALE_MS;

/** Pays once per key: a known key gets its attempt's answer, a new one is checked, charged and recorded. */
export async function payOnce(deps: Deps, plan: PaymentPlan): Promise<StoredAnswer> {
  const existing = await findAttempt(deps.db, plan.key);
  if (existing) return rejoin(deps, plan, existing);
  const price = await plan.price();
  if (isAnswer(price)) {
    // The same key's other request may have paid in between (the balance it was refused for):
    // its answer is this one's too.
    const raced = await findAttempt(deps.db, plan.key);
    return raced ? rejoin(deps, plan, raced) : price;
  }
  if (!(await open(deps, plan))) {
    const raced = await findAttempt(deps.db, plan.key);
    return raced ? rejoin(deps, plan, raced) : refusalAnswer(409, plan.busy);
  }
  const limited = await overLimit(deps, plan);
  if (limited) return failAttempt(deps.db, plan.key, limited, deps.now());
  return run(deps, plan);
}

/**
 * Opens the attempt. When another key's attempt on the record went stale (its process
 * died), finishes that one first (with the charge it made, if any), then tries once more.
 */
async function open(deps: Deps, plan: PaymentPlan): Promise<boolean> {
  const attempt = {
    key: plan.key,
    subject: plan.subject,
    fingerprint: plan.fingerprint,
    details: plan.details,
  };
  if (await startAttempt(deps.db, attempt, deps.now())) return true;
  const other = await pendingAttempt(deps.db, plan.subject);
  if (!other || other.idempotencyKey === plan.key || !isStale(other, deps.now())) return false;
  if (!(await takeOverAttempt(deps.db, other, deps.now()))) return false;
  await heal(deps, plan, other);
  return startAttempt(deps.db, attempt, deps.now());
}

/** Counts a new attempt against the card-testing limits; the 429 answer when over. */
async function overLimit(deps: Deps, plan: PaymentPlan): Promise<StoredAnswer | null> {
  try {
    for (const limit of plan.limits) await consume(deps.db, limit, deps.now());
    return null;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { status: e.status, body: { success: false, data: e.errors } };
  }
}

/** Runs an attempt this request holds: re-prices, charges with the key, records. */
async function run(deps: Deps, plan: PaymentPlan): Promise<StoredAnswer> {
  // A taken-over attempt may have been charged before its process died: finish with that charge.
  const earlier = await deps.payments.find(plan.key);
  if (earlier) return finish(deps, plan, plan.key, plan.details, earlier);
  const price = await plan.price();
  if (isAnswer(price)) return failAttempt(deps.db, plan.key, price, deps.now());
  const result = await chargeOrUnknown(deps, { idempotencyKey: plan.key, ...price, card: plan.card });
  countCharge(result);
  // No answer from the gateway: the charge may or may not exist. The attempt stays pending, so
  // the browser retries with the same key and a later request finishes it (see rejoin).
  if (!result) return refusalAnswer(409, STILL_PROCESSING);
  if (!result.ok) return failAttempt(deps.db, plan.key, declined(result), deps.now());
  const { ok: _ok, ...charge } = result;
  return finish(deps, plan, plan.key, plan.details, charge);
}

/** The gateway's answer, or null when it failed to give one (logged without the request). */
async function chargeOrUnknown(deps: Deps, request: ChargeRequest): Promise<ChargeResult | null> {
  // The attempt stays this request's while the gateway works, however long that takes.
  const heartbeat = setInterval(() => {
    touchAttempt(deps.db, request.idempotencyKey, deps.now()).catch((e: unknown) =>
      console.warn(JSON.stringify({ level: "warn", what: "payment attempt touch failed", error: String(e) })),
    );
  }, HEARTBEAT_MS);
  try {
    return await deps.payments.charge(request);
  } catch (e) {
    const error = withoutCard(e instanceof Error ? e.message : "unknown", request.card);
    console.error(JSON.stringify({ level: "error", what: "payment gateway failed", error }));
    return null;
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * A gateway's error text without the card: a processor's or an HTTP client's message may
 * quote the request it failed on, and the number and code must never reach a log.
 */
function withoutCard(text: string, card: ChargeRequest["card"]): string {
  const bare = text.replace(/\d(?:[\s-]?\d){11,18}/g, "[card number]");
  return card.cvv ? bare.replace(new RegExp(`(?<!\\d)${card.cvv}(?!\\d)`, "g"), "[code]") : bare;
}

/** Records a charge with its attempt in one transaction, then mails the receipt. */
async function finish(deps: Deps, plan: PaymentPlan, key: string, details: AttemptDetails, charge: Charge) {
  const done = await completeAttempt(deps.db, key, deps.now(), async (tx) => {
    const recorded = await plan.record(tx, key, charge, details);
    // The payment's audit row commits with the payment (no card number: brand and last four).
    if (recorded.value)
      await auditPayment(
        deps,
        tx,
        plan,
        plan.payer ?? { kind: "visitor", label: details.email },
        recorded.value,
      );
    return recorded;
  });
  if (done.value) await mailReceipt(deps, done.value);
  return done.answer;
}

async function auditPayment(deps: Deps, tx: Db, plan: PaymentPlan, payer: Actor, r: Receipt) {
  // A quote paid by card becomes its order in this transaction: the row names both.
  const quoteId = /^quote:(\d+)$/.exec(plan.subject)?.[1];
  const subscriptionId = (await recordSubscription(tx, "order", r.orderId))?.subscriptionId ?? null;
  await appendAudit(
    tx,
    {
      subscriptionId,
      actor: payer,
      action: "order.payment",
      entityId: `${ORDER_PREFIX}${r.orderId}`,
      always: true,
      after: {
        order: `${ORDER_PREFIX}${r.orderId}`,
        ...(quoteId && { quote: quoteNumber(Number(quoteId)) }),
        paymentId: r.paymentId,
        amountCents: r.charge.amount,
        card: `${r.charge.brand} ending ${r.charge.last4}`,
      },
    },
    r.paidAt,
    deps.config.auditKey,
  );
}

/** Another key's stale attempt on this record: finished with its charge, or failed when none was made. */
async function heal(deps: Deps, plan: PaymentPlan, other: AttemptRow) {
  const charge = await deps.payments.find(other.idempotencyKey);
  if (charge) await finish(deps, plan, other.idempotencyKey, other.details as AttemptDetails, charge);
  else
    await failAttempt(
      deps.db,
      other.idempotencyKey,
      refusalAnswer(402, CARD_MESSAGES.processing),
      deps.now(),
    );
}

/**
 * A request with a key already used: other details are refused; otherwise it waits for the
 * attempt to end and sends the same answer, or takes over an attempt whose process died.
 */
async function rejoin(deps: Deps, plan: PaymentPlan, row: AttemptRow): Promise<StoredAnswer> {
  if (!safeEqual(row.fingerprint, plan.fingerprint)) return refusalAnswer(409, KEY_REUSED);
  const deadline = Date.now() + WAIT_MS;
  let current = row;
  while (current.status === "pending") {
    if (isStale(current, deps.now()) && (await takeOverAttempt(deps.db, current, deps.now())))
      return run(deps, plan);
    if (Date.now() > deadline) return refusalAnswer(409, STILL_PROCESSING);
    await sleep(POLL_MS);
    current = (await findAttempt(deps.db, plan.key)) ?? current;
  }
  return current.response as StoredAnswer;
}

/** Mails the receipt after the commit: a mail that fails is logged (no card data) and the payment stands. */
async function mailReceipt(deps: Deps, r: Receipt) {
  const facts: ReceiptFacts = { orderNumber: `${ORDER_PREFIX}${r.orderId}`, paidAt: r.paidAt, ...r.charge };
  const origin = orderLinkOrigin(deps);
  const link = `${origin}${publicOrderPath(r.orderId, r.validationId)}`;
  const pdf = `${origin}${pathOf(getPaymentReceipt, { ref: publicOrderRef(r.orderId, r.validationId), paymentId: r.paymentId })}`;
  try {
    await deps.mailer.send(receiptMail(r.to, facts, link, pdf));
  } catch (e) {
    console.error(
      JSON.stringify({ level: "error", what: "receipt mail failed", order: r.orderId, error: String(e) }),
    );
  }
}

const orderLinkOrigin = (deps: Deps) => pageLinkOrigin(deps.config);
