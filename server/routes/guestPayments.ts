import { Hono, type Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { orderByRef, type OrderRecord } from "../data/orders.ts";
import type { StoredAnswer } from "../data/paymentAttempts.ts";
import { quoteByToken } from "../data/quotes.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { clientIp } from "../http/clientIp.ts";
import { limitBodyTo } from "../http/bodyLimit.ts";
import { privateResponse } from "../http/headers.ts";
import { inputOf } from "../http/input.ts";
import { cardText } from "../services/receiptMail.ts";
import { receiptPdf } from "../services/receipts.ts";
import { MAX_ID } from "../../src/api/fields.ts";
import { getPaymentReceipt, payOrderAsGuest } from "../../src/api/orders.ts";
import { orderQuoteAsGuest } from "../../src/api/quotes.ts";
import { ORDER_PREFIX, parsePublicOrderRef } from "../../src/domain/order.ts";
import { payOnce } from "../flows/paymentFlow.ts";
import { orderPlan, quotePlan } from "../flows/paymentPlans.ts";

/** A card form is a few hundred bytes. */
const FORM_LIMIT = 16 * 1024;
const limitForm = limitBodyTo(FORM_LIMIT);

/** The order a public reference names, or null for a malformed, unknown or wrong one alike. */
async function orderOf(deps: Deps, text: string) {
  const ref = parsePublicOrderRef(text);
  if (!ref || ref.id < 1 || ref.id > MAX_ID) return null;
  return orderByRef(deps.db, ref.id, ref.validationId);
}

/** Sends a payment attempt's answer (stored, so every retry of its key gets the same bytes). */
const send = (c: Context, answer: StoredAnswer) => c.json(answer.body, answer.status as ContentfulStatusCode);

/**
 * Guest payments from the public order and quote pages (spec sections 5 and 7): an order's
 * balance, a quote ordered by card, and a payment's receipt as a PDF. Every answer is private.
 */
export function guestPaymentRoutes(deps: Deps) {
  const ip = (c: Context) => clientIp(c, deps.config.trustProxy);
  return new Hono()
    .post(payOrderAsGuest.path, guard(payOrderAsGuest, deps), privateResponse, limitForm, async (c) => {
      const input = await inputOf(c, payOrderAsGuest);
      const order = await orderOf(deps, c.req.param("ref"));
      if (!order) throw new ApiError(404, NOT_FOUND);
      return send(c, await payOnce(deps, orderPlan(deps, order, input, ip(c))));
    })
    .post(orderQuoteAsGuest.path, guard(orderQuoteAsGuest, deps), privateResponse, limitForm, async (c) => {
      const input = await inputOf(c, orderQuoteAsGuest);
      const quote = await quoteByToken(deps.db, c.req.param("token"));
      if (!quote) throw new ApiError(404, NOT_FOUND);
      return send(c, await payOnce(deps, quotePlan(deps, quote, input, ip(c))));
    })
    .get(getPaymentReceipt.path, guard(getPaymentReceipt, deps), privateResponse, async (c) =>
      sendReceipt(c, await orderOf(deps, c.req.param("ref")), c.req.param("paymentId")),
    );
}

/**
 * One payment's receipt as a PDF download, for the guest's order link and for a member's
 * signed-in order page alike; an order or payment not there is a 404.
 */
export async function sendReceipt(c: Context, order: OrderRecord | null, paymentId: string | undefined) {
  const payment = order?.payments.find((p) => String(p.id) === paymentId);
  if (!order || !payment) throw new ApiError(404, NOT_FOUND);
  const orderNumber = `${ORDER_PREFIX}${order.row.id}`;
  const pdf = await receiptPdf({
    orderNumber,
    paymentId: payment.id,
    amount: payment.amount,
    currency: payment.currency,
    paidWith:
      payment.cardBrand && payment.cardLast4
        ? cardText({ brand: payment.cardBrand, last4: payment.cardLast4 })
        : payment.method,
    paidAt: payment.createdAt,
    reference: payment.gatewayReference ?? "-",
  });
  return c.body(new Uint8Array(pdf), 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": `attachment; filename="receipt-${orderNumber}-${payment.id}.pdf"`,
  });
}
