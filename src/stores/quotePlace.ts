import { openPage } from "@nanostores/router";
import type { FieldError } from "../api/errors.ts";
import { PAYMENT_IN_PROGRESS } from "../api/payments.ts";
import { placeQuoteOrder } from "../api/quoteOrder.ts";
import type { AddressDraft } from "../domain/address.ts";
import { cardFields, PAYMENT_NETWORK_ERROR, type CardInput } from "../domain/card.ts";
import { ORDER_PREFIX } from "../domain/order.ts";
import { cardProblems } from "./cardPayment.ts";
import { formTask } from "./formTask.ts";
import { newAttemptKey } from "./guestPay.ts";
import { call, errorsOf, RequestFailure } from "./http.ts";
import { $orderForm, $quoteOrder, $readyToPay } from "./quoteOrder.ts";
import { $placedOrder, orderPagePath, showPaymentComplete } from "./quotePlaced.ts";
import { $router } from "./router.ts";

/*
 * Placing a quote's order from its page (POST /quote/order): the payment form's own fields,
 * the request as the spec names its fields, and what a failure leaves for a retry. The
 * addresses, shipping option and tax it sends are the ones src/stores/quoteOrder.ts holds.
 */

export function setOrderField(
  field: "method" | "contactPhone" | "purchaseOrderNumber" | "customerComment",
  value: string,
) {
  $orderForm.setKey(field, value as never);
}

/** The purchase-order file chosen (null when the choice was cleared). */
export function choosePoFile(file: File | null) {
  $orderForm.setKey("file", file);
}

/** An address's fields as the order form names them: shippingAddressCity, billingAddressZip, … */
function addressFields(prefix: "shippingAddress" | "billingAddress", d: AddressDraft | null) {
  return {
    [`${prefix}CompanyName`]: d?.companyName ?? "",
    [`${prefix}ContactName`]: d?.contactName ?? "",
    [`${prefix}AddressLine1`]: d?.line1 ?? "",
    [`${prefix}AddressLine2`]: d?.line2 ?? "",
    [`${prefix}City`]: d?.city ?? "",
    [`${prefix}State`]: d?.state ?? "",
    [`${prefix}Zip`]: d?.zipCode ?? "",
    [`${prefix}CountryId`]: d?.countryId === null || !d ? "" : String(d.countryId),
  };
}

/**
 * A failure as the form shows it. An answer ends the attempt: the next submit gets a new key.
 * Without an answer the order may have been placed: the key stays, so a retry cannot order
 * twice (the same rule as the guest payment's).
 */
function orderFailure(e: unknown): RequestFailure {
  const errors: FieldError[] = errorsOf(e);
  const answered = e instanceof RequestFailure && e.status !== undefined;
  if (!answered) return new RequestFailure([{ field: null, message: PAYMENT_NETWORK_ERROR }]);
  if (!errors.some((x) => x.message === PAYMENT_IN_PROGRESS)) $orderForm.setKey("key", newAttemptKey());
  return new RequestFailure(errors);
}

/**
 * Places the order (POST /quote/order, multipart when a PO file goes with it): by card with
 * `card`, on terms without. On success the page confirms it in place (and a card order opens
 * Payment Complete), with a link to the new order's page.
 */
export async function placeOrder(card: CardInput | null) {
  const s = $quoteOrder.get();
  if (!s.quote || !$readyToPay.get()) return;
  const quote = s.quote;
  // The spec's default expiry (01, this year) is a past month most of the year: said at once.
  const problems = card ? cardProblems(card, { email: false }) : [];
  if (problems.length) {
    $orderForm.set({ ...$orderForm.get(), errors: problems });
    return;
  }
  await formTask($orderForm, async () => {
    const f = $orderForm.get();
    const input = {
      quoteId: String(quote.id),
      paymentMethod: card ? ("Online - CC" as const) : ("Purchase Order" as const),
      contactPhone: f.contactPhone,
      purchaseOrderNumber: f.purchaseOrderNumber,
      customerComment: f.customerComment,
      ...(card ? cardFields(card) : { email: "" }),
      needsShipping: String(quote.needsShipping),
      shippingCarrier: s.option?.carrierName ?? "",
      shippingMethod: s.option?.serviceName ?? "",
      shippingPrice: s.option?.priceCents ?? 0,
      tax: s.tax ?? 0,
      ...addressFields("shippingAddress", s.shipping),
      ...addressFields("billingAddress", s.billing),
      idempotencyKey: f.key,
      ...(card || !f.file ? {} : { purchaseOrderFile: f.file }),
    };
    let orderId: number;
    try {
      ({ orderId } = await call(placeQuoteOrder, input));
    } catch (e) {
      throw orderFailure(e);
    }
    $placedOrder.set({
      quoteId: quote.id,
      orderId,
      orderNumber: `${ORDER_PREFIX}${orderId}`,
      orderPath: orderPagePath(orderId),
      method: input.paymentMethod,
      purchaseOrderNumber: f.purchaseOrderNumber,
    });
    // Placing the order leads to its page (spec section 4), which confirms it and shows a card
    // order's Payment Complete over it.
    openPage($router, "orderDetails", { id: `${ORDER_PREFIX}${orderId}` });
    if (card) void showPaymentComplete(orderId);
  });
}
