import { Hono, type Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { orderRecord } from "../data/orders.ts";
import type { StoredAnswer } from "../data/paymentAttempts.ts";
import type { Deps } from "../deps.ts";
import { payOnce } from "../flows/paymentFlow.ts";
import { orderPlan } from "../flows/paymentPlans.ts";
import { placeOrder } from "../flows/quoteOrder.ts";
import { countryCode, openQuote, ratesFor, type Place } from "../flows/quotePricing.ts";
import { guard } from "../http/access.ts";
import { authOf, inSubscription } from "../http/auth.ts";
import { clientIp } from "../http/clientIp.ts";
import { limitBodyTo } from "../http/bodyLimit.ts";
import { privateResponse } from "../http/headers.ts";
import { inputOf } from "../http/input.ts";
import { userActor } from "../flows/audited.ts";
import { reply } from "../http/reply.ts";
import { MAX_UPLOAD_BYTES } from "../services/uploads.ts";
import {
  getQuoteTax,
  getShippingRates,
  payOrderAmountDue,
  placeQuoteOrder,
} from "../../src/api/quoteOrder.ts";
import { cents } from "../../src/domain/brand.ts";
import { amountsOf, formatMoney, toUnits } from "../../src/domain/money.ts";

/*
 * Ordering a quote and paying an order's balance, signed in (spec section 7): each handler
 * parses with the contract and calls one flow (server/flows/quoteOrder.ts, paymentFlow.ts).
 * Every record is read by id, then checked against the active subscription (another's is a
 * 404 like a missing one).
 */

/** A card form is a few hundred bytes; an order on terms carries its PO file besides. */
const FORM_LIMIT = 16 * 1024;
const ORDER_LIMIT = MAX_UPLOAD_BYTES + 64 * 1024;

const send = (c: Context, answer: StoredAnswer) => c.json(answer.body, answer.status as ContentfulStatusCode);

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
        const quote = await openQuote(deps, authOf(c), input.quoteId);
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
          options.map(({ price, ...o }) => ({
            ...o,
            price: toUnits(price),
            priceCents: price,
            displayPrice: formatMoney(price, quote.row.currency),
          })),
        );
      },
    )
    .post(getQuoteTax.path, guard(getQuoteTax, deps), privateResponse, limitBodyTo(FORM_LIMIT), async (c) => {
      const input = await inputOf(c, getQuoteTax);
      const quote = await openQuote(deps, authOf(c), input.quoteId);
      const country = await countryCode(deps, input.countryCode, "country");
      const tax = await deps.tax.taxFor(
        { countryCode: country.code, region: input.region },
        cents(quote.subtotal + input.shippingAmount),
      );
      return reply(c, getQuoteTax, amountsOf(quote.row.currency, { tax }));
    })
    .post(
      placeQuoteOrder.path,
      guard(placeQuoteOrder, deps),
      privateResponse,
      limitBodyTo(ORDER_LIMIT),
      async (c) => {
        const input = await inputOf(c, placeQuoteOrder);
        const file =
          input.paymentMethod === "Online - CC" ? null : (await c.req.parseBody())["purchaseOrderFile"];
        const purchaseOrderFile =
          file instanceof File
            ? { name: file.name, type: file.type, bytes: new Uint8Array(await file.arrayBuffer()) }
            : null;
        const caller = { auth: authOf(c), ip: clientIp(c, deps.config.trustProxy), purchaseOrderFile };
        return send(c, await placeOrder(deps, caller, input));
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
        inSubscription(auth, order.row);
        const email = input.email || auth.user.email;
        return send(
          c,
          await payOnce(deps, {
            ...orderPlan(deps, order, { ...input, email }, clientIp(c, deps.config.trustProxy)),
            payer: userActor(auth),
          }),
        );
      },
    );
}
