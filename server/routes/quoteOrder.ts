import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { sha256 } from "../core/crypto.ts";
import { ApiError, NOT_FOUND, type FieldError } from "../core/errors.ts";
import { countryList } from "../data/countries.ts";
import { orderRecord } from "../data/orders.ts";
import { findAttempt, type StoredAnswer, type Tx } from "../data/paymentAttempts.ts";
import { quoteRecord, type QuoteRecord } from "../data/quotes.ts";
import {
  applyOrderTerms,
  attemptInOneTransaction,
  orderOnTerms,
  type AddressFields,
  type OrderTerms,
} from "../data/quoteOrders.ts";
import { addressesById } from "../data/records.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { authOf, authorize } from "../http/auth.ts";
import { clientIp } from "../http/clientIp.ts";
import { errorResponse } from "../http/errors.ts";
import { privateResponse } from "../http/headers.ts";
import { inputOf, validate } from "../http/input.ts";
import { reply } from "../http/reply.ts";
import type { RateOption } from "../services/shippingRates.ts";
import { checkUpload, MAX_UPLOAD_BYTES, storeUpload, UPLOAD_MESSAGES } from "../services/uploads.ts";
import type { InputOf } from "../../src/api/endpoint.ts";
import { CardFields } from "../../src/api/payments.ts";
import {
  getQuoteTax,
  getShippingRates,
  payOrderAmountDue,
  placeQuoteOrder,
  QUOTE_ORDER_MESSAGES,
} from "../../src/api/quoteOrder.ts";
import { cents, type Cents } from "../../src/domain/brand.ts";
import { formatMoney } from "../../src/domain/money.ts";
import { KEY_REUSED, payOnce, refusalAnswer, STILL_PROCESSING } from "./paymentFlow.ts";
import { orderPlan, QUOTE_ORDERED, quotePlan, quoteRefusal, type QuoteTerms } from "./paymentPlans.ts";
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
const tooLarge = (maxSize: number) =>
  bodyLimit({
    maxSize,
    onError: (c) => errorResponse(c, 413, [{ field: null, message: "The request body is too large." }]),
  });

const send = (c: Context, answer: StoredAnswer) => c.json(answer.body, answer.status as ContentfulStatusCode);

type OrderInput = InputOf<typeof placeQuoteOrder>;
type Prefix = "shippingAddress" | "billingAddress";

/** An address with its country's code, as rates and tax need it. */
interface Place {
  fields: AddressFields;
  countryCode: string;
}

/** The shipping price, the tax and the total the server computes for an order. */
interface Priced {
  option: RateOption | null;
  shippingAmount: Cents;
  tax: Cents;
  total: Cents;
}

/** The total quantity of a quote's items (the rate table prices per item). */
const itemCount = (q: QuoteRecord) => q.lineItems.reduce((n, i) => n + Math.max(0, i.quantity), 0);

/**
 * The quote of the caller's subscription, or 404; refused (409) once it is closed, expired or
 * ordered, unless `key` already has an attempt on it: a retry after the order was placed
 * goes on to get that attempt's answer (or its refusal of other details).
 */
async function openQuote(deps: Deps, c: Context, quoteId: string, key?: string): Promise<QuoteRecord> {
  const quote = await quoteRecord(deps.db, Number(quoteId));
  if (!quote) throw new ApiError(404, NOT_FOUND);
  authorize(authOf(c), "quote.pay", quote.row);
  const refusal = quoteRefusal(quote, deps.now().getTime() / 1000);
  if (!refusal) return quote;
  const earlier = key ? await findAttempt(deps.db, key) : null;
  if (earlier?.subject !== `quote:${quote.row.id}`) throw new ApiError(409, refusal);
  return quote;
}

/** The country with this ISO code (crmId 0 excluded), or a 400 on `field`. */
async function countryCode(deps: Deps, code: string, field: string): Promise<{ id: number; code: string }> {
  const found = (await countryList(deps.db)).find((k) => k.code === code.toUpperCase());
  if (!found) throw new ApiError(400, [{ field, message: "Choose a country." }]);
  return found;
}

/** The form's address with this prefix, or the quote's stored one when the form left it empty. */
async function placeOf(
  deps: Deps,
  input: OrderInput,
  prefix: Prefix,
  stored: number | null,
): Promise<Place | null> {
  const v = (part: string) => String((input as Record<string, unknown>)[`${prefix}${part}`] ?? "");
  if (["CompanyName", "ContactName", "AddressLine1", "City", "Zip", "CountryId"].every((p) => !v(p))) {
    if (stored === null) return null;
    const a = (await addressesById(deps.db, [stored])).get(stored);
    if (!a) return null;
    const { id: _id, country, attention: _a, ...rest } = a;
    return { fields: { ...rest, countryId: country?.id ?? null }, countryCode: country?.code ?? "" };
  }
  const country = (await countryList(deps.db)).find((k) => String(k.id) === v("CountryId"));
  if (!country) throw new ApiError(400, [{ field: `${prefix}CountryId`, message: "Choose a country." }]);
  const orNull = (s: string) => s || null;
  return {
    fields: {
      companyName: orNull(v("CompanyName")),
      contactName: orNull(v("ContactName")),
      line1: orNull(v("AddressLine1")),
      line2: orNull(v("AddressLine2")),
      city: orNull(v("City")),
      state: orNull(v("State")),
      zipCode: orNull(v("Zip")),
      countryId: country.id,
      phoneNumber: input.contactPhone || null,
    },
    countryCode: country.code,
  };
}

/** Rate-service field names to the order form's shipping address fields. */
const SHIPPING_FIELD: Record<string, string> = {
  line1: "shippingAddressAddressLine1",
  city: "shippingAddressCity",
  zip: "shippingAddressZip",
  country: "shippingAddressCountryId",
};

/** The options for sending the quote to a place, or a 400 with the address's field errors. */
async function ratesFor(deps: Deps, quote: QuoteRecord, place: Place, rename = (f: string) => f) {
  const answer = await deps.shippingRates.rates(
    {
      line1: place.fields.line1 ?? "",
      city: place.fields.city ?? "",
      state: place.fields.state ?? "",
      countryCode: place.countryCode,
      zip: place.fields.zipCode ?? "",
    },
    itemCount(quote),
  );
  if (!answer.ok)
    throw new ApiError(
      400,
      answer.errors.map((e): FieldError => ({ ...e, field: e.field && rename(e.field) })),
    );
  return answer.options;
}

/**
 * Prices an order: the chosen option's price for the shipping address (the quote's items as
 * they are now), then the tax on goods plus shipping where the goods go. Field errors for
 * an option not offered; `compare` refuses a shipping price or a tax that differs.
 */
async function priceOrder(
  deps: Deps,
  quote: QuoteRecord,
  places: { shipping: Place | null; billing: Place | null },
  choice: { carrier: string; method: string },
): Promise<Priced> {
  let option: RateOption | null = null;
  if (quote.row.needsShipping) {
    if (!places.shipping)
      throw new ApiError(400, [
        { field: "shippingAddressAddressLine1", message: "Enter the shipping address." },
      ]);
    const options = await ratesFor(deps, quote, places.shipping, (f) => SHIPPING_FIELD[f] ?? f);
    option =
      options.find(
        (o) => !o.isDisabled && o.carrierName === choice.carrier && o.serviceName === choice.method,
      ) ?? null;
    if (!option)
      throw new ApiError(400, [{ field: "shippingMethod", message: QUOTE_ORDER_MESSAGES.shippingMethod }]);
  }
  const shippingAmount = option?.price ?? cents(0);
  const taxedAt = places.shipping ?? places.billing;
  const tax = taxedAt
    ? await deps.tax.taxFor(
        { countryCode: taxedAt.countryCode, region: taxedAt.fields.state ?? "" },
        cents(quote.subtotal + shippingAmount),
      )
    : cents(0);
  return { option, shippingAmount, tax, total: cents(quote.subtotal + shippingAmount + tax) };
}

/** Refuses a shipping price or tax the form sent that is not the server's (a tampered or stale form). */
function compare(priced: Priced, input: OrderInput) {
  const errors: FieldError[] = [];
  if (input.shippingPrice !== priced.shippingAmount)
    errors.push({ field: "shippingPrice", message: QUOTE_ORDER_MESSAGES.shippingPrice });
  if (input.tax !== priced.tax) errors.push({ field: "tax", message: QUOTE_ORDER_MESSAGES.tax });
  if (errors.length) throw new ApiError(400, errors);
}

/** What the order is written with. */
const termsOf = (
  c: Context,
  priced: Priced,
  places: { shipping: Place | null; billing: Place | null },
): OrderTerms => ({
  subscriptionId: authOf(c).subscription.id,
  shipping: places.shipping?.fields ?? null,
  billing: places.billing?.fields ?? null,
  tax: priced.tax,
  shippingAmount: priced.shippingAmount,
  shipCarrier: priced.option?.carrierName ?? null,
  shipMethod: priced.option?.serviceName ?? null,
});

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
      tooLarge(FORM_LIMIT),
      async (c) => {
        const input = await inputOf(c, getShippingRates);
        const quote = await openQuote(deps, c, input.quoteId);
        if (!quote.row.needsShipping) return reply(c, getShippingRates, []);
        const country = await countryCode(deps, input.countryCode, "country");
        const place: Place = {
          fields: {
            companyName: input.companyName,
            contactName: input.contactName,
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
    .post(getQuoteTax.path, guard(getQuoteTax, deps), privateResponse, tooLarge(FORM_LIMIT), async (c) => {
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
      tooLarge(ORDER_LIMIT),
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
      tooLarge(FORM_LIMIT),
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
