import * as z from "zod/mini";
import { CARD_MESSAGES } from "../domain/card.ts";
import { emailField } from "./fields.ts";

/**
 * The card form as the server reads it (spec sections 5 and 7). The checks here are about
 * form only (digits, lengths); the gateway decides declines, wrong codes and expiry. The
 * browser's amounts are compared with the server's own and never charged as sent.
 */
export const CardFields = {
  cardNumber: z.string({ error: CARD_MESSAGES.number }).check(
    z.overwrite((v) => v.replace(/[\s-]/g, "")),
    z.regex(/^\d{12,19}$/, CARD_MESSAGES.number),
  ),
  cardExpirationMonth: z
    .string({ error: CARD_MESSAGES.month })
    .check(z.regex(/^(0[1-9]|1[0-2])$/, CARD_MESSAGES.month)),
  cardExpirationYear: z.string({ error: CARD_MESSAGES.year }).check(z.regex(/^\d{2}$/, CARD_MESSAGES.year)),
  cardCvv: z.string({ error: CARD_MESSAGES.cvv }).check(z.trim(), z.regex(/^\d{3,4}$/, CARD_MESSAGES.cvv)),
  /** Asked on public views only, where it is required: the receipt goes there. */
  email: emailField,
};

/**
 * One key per payment attempt, made by the browser when the form is shown and again after a
 * decline: a double click, a retry or parallel submits with one key charge once.
 */
export const idempotencyKeyField = z
  .string({ error: "The payment attempt has no key; reload the page." })
  .check(z.regex(/^[A-Za-z0-9_-]{16,100}$/, "The payment attempt has no key; reload the page."));

const CENTS = "The amount must be a whole number of cents.";
/** The largest amount the payment forms carry: 15 digits of cents (shownAmountField). */
export const MAX_PAYMENT_CENTS = 999_999_999_999_999;
/** Said when a total (a quote's, or an order's with this address's tax and shipping) is past it. */
export const TOTAL_TOO_LARGE =
  "The total (line items, tax and shipping) is larger than one payment can carry (9,999,999,999,999.99).";
/**
 * An amount the browser showed, in cents, compared with the server's: digits only (a form's
 * text) or a whole number. Number() alone would read '0x25369', '1e5' and '' as amounts.
 */
export const shownAmountField = z.pipe(
  z.union(
    [
      z.string().check(z.trim(), z.regex(/^\d{1,15}$/, CENTS)),
      z.number().check(z.refine((n) => Number.isSafeInteger(n) && n >= 0, CENTS)),
    ],
    { error: CENTS },
  ),
  z.transform(Number),
);

/**
 * The answer (409) while an attempt with the same key is still at the gateway: the browser
 * keeps the key, so its retry finishes that same attempt instead of starting another.
 */
export const PAYMENT_IN_PROGRESS = "This payment is still being processed. Wait a moment, then try again.";
