import { Hono, type Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { sha256 } from "../core/crypto.ts";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { orderRecord } from "../data/orders.ts";
import { findAttempt, type StoredAnswer, type Tx } from "../data/paymentAttempts.ts";
import { type QuoteRecord } from "../data/quotes.ts";
import { applyOrderTerms, attemptInOneTransaction, orderOnTerms } from "../data/quoteOrders.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { authOf, authorize } from "../http/auth.ts";
import { clientIp } from "../http/clientIp.ts";
import { limitBodyTo } from "../http/bodyLimit.ts";
import { privateResponse } from "../http/headers.ts";
import { inputOf, validate } from "../http/input.ts";
import { reply } from "../http/reply.ts";
import { checkUpload, MAX_UPLOAD_BYTES, storeUpload, UPLOAD_MESSAGES } from "../services/uploads.ts";
import { CardFields } from "../../src/api/payments.ts";
import {
  getQuoteTax,
  getShippingRates,
  payOrderAmountDue,
  placeQuoteOrder,
  QUOTE_ORDER_MESSAGES,
} from "../../src/api/quoteOrder.ts";
import { cents } from "../../src/domain/brand.ts";
import { formatMoney } from "../../src/domain/money.ts";
import {
  compare,
  countryCode,
  openQuote,
  placeOf,
  priceOrder,
  ratesFor,
  termsOf,
  type OrderInput,
  type Place,
  type Priced,
} from "./quotePricing.ts";
import { KEY_REUSED, payOnce, refusalAnswer, STILL_PROCESSING } from "./paymentFlow.ts";
import { orderPlan, QUOTE_ORDERED, quotePlan, type QuoteTerms } from "./paymentPlans.ts";
import * as z from "zod/mini";

/*
 * Ordering a quote and paying an order's balance, signed in (spec section 7). Every record is
 * read by id, then checked against the active subscription (another's is a 404 like a missing
 * one). Shipping, tax and totals are the server's own: the values the form sends are compared
 * with them and a difference is refused, never charged.
 */

/** A card form is a few hundred bytes; an order on terms carries its PO file besides. */
const FORM_LIMIT = 16 * 1024;
const ORDER_LIMIT = MAX_UPLOAD_BYTES + 64 * 1024;

const send = (c: Context, answer: StoredAnswer) => c.json(answer.body, answer.status as ContentfulStatusCode);

/** The card fields of 'Online - CC', read with the guest payment's rules (email apart). */
const { email: _email, ...cardOnly } = CardFields;
const CardSchema = z.object(cardOnly);

/** The answer of a placed order as the contract has it: {orderId} (the public path stays out). */
function orderAnswer(answer: StoredAnswer): StoredAnswer {
  const body = answer.body as { success: boolean; data: { orderId?: number } };
  if (answer.status !== 200 || !body.success) return answer;
  return { status: 200, body: { success: true, data: { orderId: body.data.orderId } } };
}

/** Ordering by card: the guest's quote payment with this order's own total, addresses and shipping. */
async function orderByCard(
  deps: Deps,
  c: Context,
  quote: QuoteRecord,
  input: OrderInput,
  priced: Priced,
  places: { shipping: Place | null; billing: Place | null },
) {
  const card = validate(CardSchema, input);
  const terms = termsOf(c, priced, places);
  const choice = { carrier: terms.shipCarrier ?? "", method: terms.shipMethod ?? "" };
  const quoteTerms: QuoteTerms = {
    total: async (now) => {
      try {
        return (await priceOrder(deps, now, places, choice)).total;
      } catch {
        return null;
      }
    },
    facts: [JSON.stringify(places), choice.carrier, choice.method, priced.tax],
    apply: (tx: Tx, orderId: number) => applyOrderTerms(tx, orderId, terms),
  };
  const plan = quotePlan(
    deps,
    quote,
    {
      ...card,
      email: input.email || authOf(c).user.email,
      grandTotal: priced.total,
      contactPhone: input.contactPhone,
      purchaseOrderNumber: input.purchaseOrderNumber,
      customerComment: input.customerComment,
      idempotencyKey: input.idempotencyKey,
    },
    clientIp(c, deps.config.trustProxy),
    quoteTerms,
  );
  return orderAnswer(await payOnce(deps, plan));
}

/** The answer an earlier attempt with this key gave (or a refusal when its details differ). */
function replay(
  row: { fingerprint: string; status: string; response: unknown },
  fingerprint: string,
): StoredAnswer {
  if (row.fingerprint !== fingerprint) return refusalAnswer(409, KEY_REUSED);
  if (row.status === "pending") return refusalAnswer(409, STILL_PROCESSING);
  return row.response as StoredAnswer;
}

/** Ordering on terms: the PO number and a PO file that passes the checks, one order per key. */
async function orderOnTermsOnce(
  deps: Deps,
  c: Context,
  quote: QuoteRecord,
  input: OrderInput,
  priced: Priced,
  places: { shipping: Place | null; billing: Place | null },
) {
  if (!input.purchaseOrderNumber)
    throw new ApiError(400, [
      { field: "purchaseOrderNumber", message: QUOTE_ORDER_MESSAGES.purchaseOrderNumber },
    ]);
  const file = (await c.req.parseBody())["purchaseOrderFile"];
  if (!(file instanceof File))
    throw new ApiError(400, [{ field: "purchaseOrderFile", message: UPLOAD_MESSAGES.missing }]);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const checked = checkUpload({ name: file.name, type: file.type, bytes });
  if (!checked.ok) throw new ApiError(400, [{ field: "purchaseOrderFile", message: checked.message }]);
  const auth = authOf(c);
  const email = input.email || auth.user.email;
  const subject = `quote:${quote.row.id}`;
  const fingerprint = sha256(
    JSON.stringify([
      subject,
      email,
      input.purchaseOrderNumber,
      sha256(Buffer.from(bytes).toString("base64")),
      JSON.stringify(places),
      priced.total,
    ]),
  );
  const earlier = await findAttempt(deps.db, input.idempotencyKey);
  if (earlier) return replay(earlier, fingerprint);
  const stored = await storeUpload(deps.config.dataDir, bytes);
  const attempt = {
    key: input.idempotencyKey,
    subject,
    fingerprint,
    details: { email, purchaseOrderNumber: input.purchaseOrderNumber },
  };
  const upload = {
    subscriptionId: auth.subscription.id,
    userId: auth.user.id,
    fileName: checked.fileName,
    contentType: checked.contentType,
    size: stored.size,
    sha256: stored.sha256,
    storedPath: stored.storedPath,
  };
  const answer = await attemptInOneTransaction(deps.db, attempt, deps.now(), async (tx) => {
    const made = await orderOnTerms(
      tx,
      {
        quoteId: quote.row.id,
        email,
        poNumber: input.purchaseOrderNumber,
        terms: termsOf(c, priced, places),
        upload,
      },
      deps.now(),
    );
    return made
      ? { status: 200, body: { success: true, data: { orderId: made.orderId } } }
      : refusalAnswer(409, QUOTE_ORDERED);
  });
  if (answer?.status !== 200) await stored.discard();
  if (answer) return answer;
  const raced = await findAttempt(deps.db, input.idempotencyKey);
  return raced ? replay(raced, fingerprint) : refusalAnswer(409, QUOTE_BUSY_MESSAGE);
}

/** Another key is ordering the same quote right now (a card attempt still at the gateway). */
const QUOTE_BUSY_MESSAGE = "This quote is being ordered right now. Reload the page in a moment.";

/** The signed-in quote order, its rates and tax, and the payment of an order's balance. */
export function quoteOrderRoutes(deps: Deps) {
  return new Hono()
    .post(
      getShippingRates.path,
      guard(getShippingRates, deps),
      privateResponse,
      limitBodyTo(FORM_LIMIT),
      async (c) => {
        const input = await inputOf(c, getShippingRates);
        const quote = await openQuote(deps, c, input.quoteId);
        if (!quote.row.needsShipping) return reply(c, getShippingRates, []);
        const country = await countryCode(deps, input.countryCode, "country");
        const place: Place = {
          fields: {
            companyName: input.companyName,
            contactName: input.contactName,
            attention: null,
            line1: input.line1,
            line2: null,
            city: input.city,
            state: input.state,
            zipCode: input.zip,
            countryId: country.id,
            phoneNumber: null,
          },
          countryCode: country.code,
        };
        const options = await ratesFor(deps, quote, place);
        return reply(
          c,
          getShippingRates,
          options.map((o) => ({ ...o, displayPrice: formatMoney(o.price, quote.row.currency) })),
        );
      },
    )
    .post(getQuoteTax.path, guard(getQuoteTax, deps), privateResponse, limitBodyTo(FORM_LIMIT), async (c) => {
      const input = await inputOf(c, getQuoteTax);
      const quote = await openQuote(deps, c, input.quoteId);
      const country = await countryCode(deps, input.countryCode, "country");
      const tax = await deps.tax.taxFor(
        { countryCode: country.code, region: input.region },
        cents(quote.subtotal + input.shippingAmount),
      );
      return reply(c, getQuoteTax, { tax });
    })
    .post(
      placeQuoteOrder.path,
      guard(placeQuoteOrder, deps),
      privateResponse,
      limitBodyTo(ORDER_LIMIT),
      async (c) => {
        const input = await inputOf(c, placeQuoteOrder);
        const quote = await openQuote(deps, c, input.quoteId, input.idempotencyKey);
        const places = {
          shipping: await placeOf(deps, input, "shippingAddress", quote.row.shippingAddressId),
          billing: await placeOf(deps, input, "billingAddress", quote.row.billingAddressId),
        };
        const priced = await priceOrder(deps, quote, places, {
          carrier: input.shippingCarrier,
          method: input.shippingMethod,
        });
        compare(priced, input);
        const answer =
          input.paymentMethod === "Online - CC"
            ? await orderByCard(deps, c, quote, input, priced, places)
            : await orderOnTermsOnce(deps, c, quote, input, priced, places);
        return send(c, answer);
      },
    )
    .post(
      payOrderAmountDue.path,
      guard(payOrderAmountDue, deps),
      privateResponse,
      limitBodyTo(FORM_LIMIT),
      async (c) => {
        const input = await inputOf(c, payOrderAmountDue);
        const order = await orderRecord(deps.db, Number(input.orderCrmId));
        if (!order) throw new ApiError(404, NOT_FOUND);
        const auth = authOf(c);
        authorize(auth, "order.pay", order.row);
        const email = input.email || auth.user.email;
        return send(
          c,
          await payOnce(
            deps,
            orderPlan(deps, order, { ...input, email }, clientIp(c, deps.config.trustProxy)),
          ),
        );
      },
    );
}
