import { sql } from "drizzle-orm";
import { rows, type Db } from "../../server/db/client.ts";
import { sameAnswer, type KeyLog } from "./payments.ts";

/** The rows that exist before the drivers start: the check looks only at what came after. */
export interface Before {
  charges: Set<string>;
  payments: Set<number>;
  orders: Set<number>;
}

export async function snapshot(db: Db): Promise<Before> {
  const keys = await rows<{ k: string }>(db, sql`select idempotency_key as k from sandbox_charges`);
  const pays = await rows<{ id: number }>(db, sql`select id from payments`);
  const ords = await rows<{ id: number }>(db, sql`select id from orders`);
  return {
    charges: new Set(keys.map((r) => r.k)),
    payments: new Set(pays.map((r) => Number(r.id))),
    orders: new Set(ords.map((r) => Number(r.id))),
  };
}

/** What the payments proof counts; every field after `orders` must be 0. */
export interface PaymentCounts {
  keys: number;
  requests: number;
  networkErrors: number;
  serverErrors: number;
  /** Keys whose browser lost a request to a kill (so its retry met an attempt left behind). */
  interrupted: number;
  /** "Still being processed" answers: a retry waiting for an attempt a dead process left pending. */
  inProgress: number;
  charges: number;
  payments: number;
  orders: number;
  /** A charge the gateway made with no payment row for its key. */
  lostCharges: number;
  /** A payment row (or a new order) with no gateway charge behind it, or another amount or reference. */
  withoutCharge: number;
  /** A record charged by more than one key, or a quote with more than one order. */
  doubled: number;
  /** A browser told "paid" without a charge and rows, or told anything else while its key was charged. */
  wrongAnswers: number;
  /** A retry of a key that got another answer than the first final one. */
  replayMismatches: number;
  /** Keys still pending at the end, or whose browser gave up after 3 minutes. */
  unfinished: number;
}

type Charge = { k: string; amount: number; reference: string };
type Payment = { id: number; order_id: number; k: string; amount: number; ref: string | null };

/** Compares the gateway's ledger, the portal's rows and what every browser was told. */
export async function checkPayments(db: Db, before: Before, logs: KeyLog[]): Promise<PaymentCounts> {
  const charges = (
    await rows<Charge>(db, sql`select idempotency_key as k, amount, reference from sandbox_charges`)
  ).filter((c) => !before.charges.has(c.k));
  const payments = (
    await rows<Payment>(
      db,
      sql`select id, order_id, idempotency_key as k, amount, gateway_reference as ref from payments`,
    )
  )
    .map((p) => ({ ...p, id: Number(p.id), order_id: Number(p.order_id) }))
    .filter((p) => !before.payments.has(p.id));
  const orders = (
    await rows<{ id: number; quote_id: number | null }>(db, sql`select id, quote_id from orders`)
  )
    .map((o) => ({ id: Number(o.id), quoteId: o.quote_id === null ? null : Number(o.quote_id) }))
    .filter((o) => !before.orders.has(o.id));
  const pending = new Set(
    (
      await rows<{ k: string }>(
        db,
        sql`select idempotency_key as k from payment_attempts where status = 'pending'`,
      )
    ).map((r) => r.k),
  );
  const chargeOf = new Map(charges.map((c) => [c.k, c]));
  const paymentOf = new Map(payments.map((p) => [p.k, p]));

  const lostCharges = charges.filter((c) => !paymentOf.has(c.k)).length;
  const badPayment = (p: Payment) => {
    const c = chargeOf.get(p.k);
    return !c || Number(c.amount) !== Number(p.amount) || c.reference !== p.ref;
  };
  const chargedOrders = new Set(payments.filter((p) => chargeOf.has(p.k)).map((p) => p.order_id));
  const withoutCharge =
    payments.filter(badPayment).length + orders.filter((o) => !chargedOrders.has(o.id)).length;

  const chargedPerSubject = new Map<string, number>();
  for (const log of logs)
    if (chargeOf.has(log.key))
      chargedPerSubject.set(log.subject, (chargedPerSubject.get(log.subject) ?? 0) + 1);
  const ordersPerQuote = new Map<number, number>();
  for (const o of orders)
    if (o.quoteId !== null) ordersPerQuote.set(o.quoteId, (ordersPerQuote.get(o.quoteId) ?? 0) + 1);
  const doubled =
    [...chargedPerSubject.values()].filter((n) => n > 1).length +
    [...ordersPerQuote.values()].filter((n) => n > 1).length;

  const wrongAnswers = logs.filter(
    (log) => log.first && !answerFits(log, chargeOf.has(log.key), paymentOf.get(log.key)),
  ).length;
  const sum = (f: (l: KeyLog) => number) => logs.reduce((n, l) => n + f(l), 0);
  return {
    keys: logs.length,
    requests: sum((l) => l.requests),
    networkErrors: sum((l) => l.networkErrors),
    serverErrors: sum((l) => l.serverErrors),
    interrupted: logs.filter((l) => l.networkErrors > 0).length,
    inProgress: sum((l) => l.inProgress),
    charges: charges.length,
    payments: payments.length,
    orders: orders.length,
    lostCharges,
    withoutCharge,
    doubled,
    wrongAnswers,
    replayMismatches: logs.filter((l) => l.first && !sameAnswer(l)).length,
    unfinished: logs.filter((l) => !l.first || pending.has(l.key)).length,
  };
}

/** A 200 names the key's own payment (or the order it made); any other answer means no charge. */
function answerFits(log: KeyLog, charged: boolean, payment: Payment | undefined): boolean {
  if (log.first?.status !== 200) return !charged;
  if (!charged || !payment) return false;
  const data = (log.first.body as { data?: { paymentId?: number; orderId?: number } }).data ?? {};
  return data.paymentId === payment.id || data.orderId === payment.order_id;
}
