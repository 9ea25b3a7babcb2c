import { sha256 } from "../core/crypto.ts";
import { ApiError } from "../core/errors.ts";
import type { Auth } from "../data/auth.ts";
import { findAttempt, type StoredAnswer } from "../data/paymentAttempts.ts";
import type { QuoteRecord } from "../data/quotes.ts";
import { applyOrderTerms, attemptInOneTransaction, orderOnTerms } from "../data/quoteOrders.ts";
import type { Deps } from "../deps.ts";
import { validate } from "../http/input.ts";
import { checkUpload, storeUpload, UPLOAD_MESSAGES } from "../services/uploads.ts";
import { CardFields } from "../../src/api/payments.ts";
import { QUOTE_ORDER_MESSAGES } from "../../src/api/quoteOrder.ts";
import { appendAudit } from "../data/audit.ts";
import { byUser, userActor } from "./audited.ts";
import { ORDER_PREFIX } from "../../src/domain/order.ts";
import { quoteNumber } from "../../src/domain/quote.ts";
import { KEY_REUSED, payOnce, refusalAnswer, STILL_PROCESSING } from "./paymentFlow.ts";
import { QUOTE_ORDERED, quotePlan, type QuoteTerms } from "./paymentPlans.ts";
import {
  compare,
  openQuote,
  placeOf,
  priceOrder,
  termsOf,
  type OrderInput,
  type Place,
  type Priced,
} from "./quotePricing.ts";
import * as z from "zod/mini";

/** A transaction handle, named through Deps (this layer does not import db/). */
type Db = Deps["db"];

/*
 * Ordering a quote signed in (spec section 7, POST /quote/order): by card, as a guest's quote
 * payment with this order's own total, addresses and shipping; or on terms, with a PO number
 * and a PO file, once per idempotency key. Shipping, tax and totals are the server's own: the
 * values the form sent are compared with them and a difference is refused, never charged.
 */

/** The order the server priced: the quote, the form, the server's prices, the places it ships to and bills. */
interface PricedOrder {
  quote: QuoteRecord;
  input: OrderInput;
  priced: Priced;
  places: { shipping: Place | null; billing: Place | null };
}

/** Who orders: the signed-in person and subscription, the client address (for the card limits), the PO file sent. */
export interface Caller {
  auth: Auth;
  ip: string;
  purchaseOrderFile: { name: string; type: string; bytes: Uint8Array } | null;
}

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
async function orderByCard(deps: Deps, caller: Caller, order: PricedOrder) {
  const { quote, input, priced, places } = order;
  const card = validate(CardSchema, input);
  const terms = termsOf(caller.auth, priced, places);
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
    apply: (tx: Db, orderId: number) => applyOrderTerms(tx, orderId, terms),
  };
  const plan = quotePlan(
    deps,
    quote,
    {
      ...card,
      email: input.email || caller.auth.user.email,
      grandTotal: priced.total,
      contactPhone: input.contactPhone,
      purchaseOrderNumber: input.purchaseOrderNumber,
      customerComment: input.customerComment,
      idempotencyKey: input.idempotencyKey,
    },
    caller.ip,
    quoteTerms,
  );
  return orderAnswer(await payOnce(deps, { ...plan, payer: userActor(caller.auth) }));
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
async function orderOnTermsOnce(deps: Deps, caller: Caller, order: PricedOrder) {
  const { quote, input, priced, places } = order;
  if (!input.purchaseOrderNumber)
    throw new ApiError(400, [
      { field: "purchaseOrderNumber", message: QUOTE_ORDER_MESSAGES.purchaseOrderNumber },
    ]);
  const file = caller.purchaseOrderFile;
  if (!file) throw new ApiError(400, [{ field: "purchaseOrderFile", message: UPLOAD_MESSAGES.missing }]);
  const { bytes } = file;
  const checked = checkUpload(file);
  if (!checked.ok) throw new ApiError(400, [{ field: "purchaseOrderFile", message: checked.message }]);
  const { auth } = caller;
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
        terms: termsOf(auth, priced, places),
        upload,
      },
      deps.now(),
    );
    if (!made) return refusalAnswer(409, QUOTE_ORDERED);
    // The order on terms and its audit row commit together (a card order's row is its payment's).
    await appendAudit(
      tx,
      {
        ...byUser(auth),
        action: "quote.order",
        entityId: quoteNumber(quote.row.id),
        after: {
          order: `${ORDER_PREFIX}${made.orderId}`,
          paymentMethod: "purchase order",
          purchaseOrderNumber: input.purchaseOrderNumber,
          purchaseOrderFile: checked.fileName,
          amountCents: priced.total,
        },
      },
      deps.now(),
      deps.config.auditKey,
    );
    return { status: 200, body: { success: true, data: { orderId: made.orderId } } };
  });
  if (answer?.status !== 200) await stored.discard();
  if (answer) return answer;
  const raced = await findAttempt(deps.db, input.idempotencyKey);
  return raced ? replay(raced, fingerprint) : refusalAnswer(409, QUOTE_BUSY_MESSAGE);
}

/** Another key is ordering the same quote right now (a card attempt still at the gateway). */
const QUOTE_BUSY_MESSAGE = "This quote is being ordered right now. Reload the page in a moment.";

/** Places the order of a signed-in quote: priced by the server, then by card or on terms. */
export async function placeOrder(deps: Deps, caller: Caller, input: OrderInput): Promise<StoredAnswer> {
  const quote = await openQuote(deps, caller.auth, input.quoteId, input.idempotencyKey);
  const places = {
    shipping: await placeOf(deps, input, "shippingAddress", quote.row.shippingAddressId),
    billing: await placeOf(deps, input, "billingAddress", quote.row.billingAddressId),
  };
  const priced = await priceOrder(deps, quote, places, {
    carrier: input.shippingCarrier,
    method: input.shippingMethod,
  });
  compare(priced, input);
  const order = { quote, input, priced, places };
  return input.paymentMethod === "Online - CC"
    ? orderByCard(deps, caller, order)
    : orderOnTermsOnce(deps, caller, order);
}
