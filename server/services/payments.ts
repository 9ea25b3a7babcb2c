import { randomToken } from "../core/crypto.ts";
import type { Cents } from "../../src/domain/brand.ts";
import { CARD_MESSAGES, cardBrand, cardExpired, expiredField, luhnValid } from "../../src/domain/card.ts";

/** The card as the form sent it (digits only). It lives for one call: never stored or logged. */
export interface CardInput {
  number: string;
  /** '01'..'12' */
  expMonth: string;
  /** Two digits. */
  expYear: string;
  cvv: string;
}

export interface ChargeRequest {
  idempotencyKey: string;
  amount: Cents;
  currency: number;
  card: CardInput;
}

/** A charge the processor made: what the portal may keep (brand and last four, never more). */
export interface Charge {
  reference: string;
  amount: Cents;
  currency: number;
  brand: string;
  last4: string;
}

export type RefusalCode =
  "invalid_number" | "expired_card" | "incorrect_cvc" | "card_declined" | "processing_error";
export type CardField = "cardNumber" | "cardCvv" | "cardExpirationMonth" | "cardExpirationYear";
export interface Refusal {
  ok: false;
  code: RefusalCode;
  field: CardField | null;
  message: string;
}
export type ChargeResult = ({ ok: true } & Charge) | Refusal;

/**
 * The payment processor. `charge` is idempotent per key: the same key returns the charge
 * made the first time, never a second one. `find` tells whether a key was charged, so a
 * request can finish an attempt whose process died before writing its rows.
 */
export interface PaymentGateway {
  charge(request: ChargeRequest): Promise<ChargeResult>;
  find(idempotencyKey: string): Promise<Charge | null>;
}

/** Where the sandbox keeps its charges (server/data/payments.ts): it outlives a restart. */
export interface ChargeStore {
  find(idempotencyKey: string): Promise<Charge | null>;
  /** Saves the key's charge unless it has one; returns the key's charge either way. */
  save(idempotencyKey: string, charge: Charge, at: Date): Promise<Charge>;
}

const refusal = (code: RefusalCode, field: CardField | null, message: string): Refusal => ({
  ok: false,
  code,
  field,
  message,
});

/** The test cards (README): each refuses the way its processor's namesake does. */
export const TEST_CARDS: Record<string, Refusal> = {
  "4000000000000002": refusal("card_declined", "cardNumber", CARD_MESSAGES.declined),
  "4000000000000127": refusal("incorrect_cvc", "cardCvv", CARD_MESSAGES.wrongCvv),
  "4000000000000069": refusal("expired_card", "cardExpirationYear", CARD_MESSAGES.expired),
  "4000000000000119": refusal("processing_error", null, CARD_MESSAGES.processing),
};

/** What a real processor checks first: the number's checksum, the expiry, the code's length. */
function cardProblem(card: CardInput, now: Date): Refusal | null {
  if (!luhnValid(card.number)) return refusal("invalid_number", "cardNumber", CARD_MESSAGES.number);
  if (cardExpired(Number(card.expMonth), Number(card.expYear), now))
    return refusal("expired_card", expiredField(Number(card.expYear), now), CARD_MESSAGES.expired);
  const amex = cardBrand(card.number) === "American Express";
  if (card.cvv.length !== (amex ? 4 : 3)) return refusal("incorrect_cvc", "cardCvv", CARD_MESSAGES.wrongCvv);
  return TEST_CARDS[card.number] ?? null;
}

/**
 * The built-in sandbox processor: 4242 4242 4242 4242 (and any other valid number) succeeds,
 * the TEST_CARDS refuse. Its charges persist in `store`, so a retry with a key, even after
 * a crash and a restart, gets the first charge back.
 */
export function createSandboxGateway(store: ChargeStore, now: () => Date): PaymentGateway {
  return {
    find: (key) => store.find(key),
    async charge({ idempotencyKey, amount, currency, card }) {
      const earlier = await store.find(idempotencyKey);
      if (earlier) {
        // A processor refuses a key reused for another amount; the portal never does that.
        if (earlier.amount !== amount || earlier.currency !== currency)
          return refusal("processing_error", null, CARD_MESSAGES.processing);
        return { ok: true, ...earlier };
      }
      const problem = cardProblem(card, now());
      if (problem) return problem;
      const made = {
        reference: `sandbox_${randomToken(12)}`,
        amount,
        currency,
        brand: cardBrand(card.number),
        last4: card.number.slice(-4),
      };
      return { ok: true, ...(await store.save(idempotencyKey, made, now())) };
    },
  };
}
