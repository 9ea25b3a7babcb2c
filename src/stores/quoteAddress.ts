import { atom, computed, map } from "nanostores";
import type { FieldError } from "../api/errors.ts";
import { getShippingRates, type ShippingOption } from "../api/quoteOrder.ts";
import { EMPTY_DRAFT, editDraft, sameAddress, type AddressDraft } from "../domain/address.ts";
import { call, errorsOf } from "./http.ts";
import { $orderTotals, $quoteOrder, countryCodeOf, noteShippingChange, refreshTax } from "./quoteOrder.ts";

/*
 * The Shipping/Billing Address dialog of the signed-in quote page (spec sections 2, 4, 5) and
 * the dialog that asks to verify the shipping address while the quote is open. Changing the
 * shipping address clears its options until they are asked for again; Save is enabled only
 * after a change and, for shipping, once an option is chosen.
 */

/** Spec section 8: the rate call failed. */
export const RATES_FAILED = "Unexpected error getting shipping rates";

export type AddressKind = "shipping" | "billing";

export interface AddressDialogState {
  /** Which address is being edited; null while the dialog is closed. */
  kind: AddressKind | null;
  original: AddressDraft;
  draft: AddressDraft;
  /** The options for the draft as it is; null until asked for (or after a change). */
  options: ShippingOption[] | null;
  rates: "idle" | "loading" | "failed";
  /** The serviceCode chosen. */
  chosen: string | null;
  /** The server's field errors (zip, line1, country, city) and messages of no field. */
  errors: FieldError[];
}

const CLOSED: AddressDialogState = {
  kind: null,
  original: EMPTY_DRAFT,
  draft: EMPTY_DRAFT,
  options: null,
  rates: "idle",
  chosen: null,
  errors: [],
};

export const $addressDialog = map<AddressDialogState>(CLOSED);

/** Does the shipping dialog need an option (the quote ships goods)? */
const needsOption = (d: AddressDialogState) =>
  d.kind === "shipping" && ($quoteOrder.get().quote?.needsShipping ?? false);

/** Save is enabled after a change (the address, or another option) and, for shipping, with an option chosen. */
export const $canSaveAddress = computed([$addressDialog, $quoteOrder], (d, order) => {
  if (d.kind === null || d.rates === "loading") return false;
  if (!needsOption(d)) return !sameAddress(d.draft, d.original);
  if (d.chosen === null || d.options === null) return false;
  return !sameAddress(d.draft, d.original) || d.chosen !== order.option?.serviceCode;
});

/** Opens the dialog on the address as the page shows it; shipping asks for that address's options at once. */
export function openAddressDialog(kind: AddressKind) {
  const order = $quoteOrder.get();
  const current = (kind === "shipping" ? order.shipping : order.billing) ?? EMPTY_DRAFT;
  $addressDialog.set({
    ...CLOSED,
    kind,
    original: current,
    draft: current,
    chosen: kind === "shipping" ? (order.option?.serviceCode ?? null) : null,
  });
  if (needsOption($addressDialog.get()) && current.line1) void refreshRates();
}

export function closeAddressDialog() {
  $addressDialog.set(CLOSED);
}

/** Which server field a form field's message comes back on. */
const SERVER_FIELD: Partial<Record<keyof AddressDraft, string>> = {
  line1: "line1",
  city: "city",
  zipCode: "zip",
  countryId: "country",
};

/** One field typed. A changed shipping address has no options until they are asked for again. */
export function editAddress(change: Partial<AddressDraft>) {
  const d = $addressDialog.get();
  const touched = Object.keys(change).map((k) => SERVER_FIELD[k as keyof AddressDraft]);
  $addressDialog.set({
    ...d,
    draft: editDraft(d.draft, change),
    errors: d.errors.filter((e) => !touched.includes(e.field ?? undefined)),
    ...(needsOption(d) ? { options: null, chosen: null, rates: "idle" as const } : {}),
  });
}

/** The options for sending the quote to an address (POST /quote/shipping-rates). */
async function ratesFor(draft: AddressDraft): Promise<ShippingOption[]> {
  const quote = $quoteOrder.get().quote;
  if (!quote) return [];
  return call(getShippingRates, {
    quoteId: String(quote.id),
    contactName: draft.contactName,
    companyName: draft.companyName,
    line1: draft.line1,
    city: draft.city,
    state: draft.state,
    countryCode: countryCodeOf(draft.countryId, quote.shippingAddress?.country),
    zip: draft.zipCode,
  });
}

let askedRates = 0;
/** Asks for the draft's options; the server's field errors land beside their fields. */
export async function refreshRates() {
  const ask = ++askedRates;
  const d = $addressDialog.get();
  $addressDialog.set({ ...d, rates: "loading", options: null, errors: [] });
  try {
    const options = await ratesFor(d.draft);
    if (ask !== askedRates) return;
    const chosen = $addressDialog.get().chosen;
    const stillOffered = options.some((o) => o.serviceCode === chosen && !o.isDisabled);
    $addressDialog.set({
      ...$addressDialog.get(),
      rates: "idle",
      options,
      chosen: stillOffered ? chosen : null,
    });
  } catch (e) {
    if (ask !== askedRates) return;
    const fieldErrors = errorsOf(e).filter((x) => x.field !== null);
    // The server's own address problems show at their fields; anything else is the spec's message.
    const errors = fieldErrors.length ? fieldErrors : [{ field: null, message: RATES_FAILED }];
    $addressDialog.set({ ...$addressDialog.get(), rates: "failed", errors });
  }
}

export function chooseOption(serviceCode: string) {
  $addressDialog.setKey("chosen", serviceCode);
}

/** Save: the page's address (and option) become the dialog's, then the tax is asked for again. */
export async function saveAddress() {
  if (!$canSaveAddress.get()) return;
  const d = $addressDialog.get();
  const option = d.options?.find((o) => o.serviceCode === d.chosen) ?? null;
  if (d.kind === "shipping") {
    const before = $orderTotals.get()?.shipping ?? 0;
    $quoteOrder.set({
      ...$quoteOrder.get(),
      shipping: d.draft,
      option: option ?? $quoteOrder.get().option,
      shippingNote: null,
    });
    if (option) noteShippingChange(before, option, sameAddress(d.draft, d.original) ? "option" : "address");
  } else $quoteOrder.setKey("billing", d.draft);
  closeAddressDialog();
  await refreshTax();
}

/** The dialog asking to verify the shipping address is open (once per page, while the quote is open). */
export const $verifyShipping = atom(false);

/** Opens the verify dialog for a quote that ships, when the person may order it. */
export function askToVerifyShipping() {
  $verifyShipping.set(true);
}

/** 'Edit Address': the verify dialog gives way to the Shipping Address dialog. */
export function editFromVerify() {
  $verifyShipping.set(false);
  openAddressDialog("shipping");
}

/**
 * 'Confirm Address': the address stays; its options are asked for, and the quote's own
 * carrier and method are chosen when still offered (then the tax). Otherwise the payment
 * section asks for a choice. When today's rate for that method is not the quoted price, a
 * line says so and offers the other options.
 */
export async function confirmShipping() {
  $verifyShipping.set(false);
  const order = $quoteOrder.get();
  if (!order.quote || !order.shipping) return;
  const { shippingCarrier, shippingMethod } = order.quote;
  let same: ShippingOption | undefined;
  try {
    same = (await ratesFor(order.shipping)).find(
      (o) => !o.isDisabled && o.carrierName === shippingCarrier && o.serviceName === shippingMethod,
    );
  } catch {
    // The payment section asks for a choice, and the dialog says what is wrong.
  }
  if (!same || $quoteOrder.get().option) return;
  $quoteOrder.setKey("option", same);
  noteShippingChange(order.quote.shippingCostCents, same, "confirmed");
  await refreshTax();
}
