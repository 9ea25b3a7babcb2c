import { randomBytes } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { PAYMENT_IN_PROGRESS } from "../../src/api/payments.ts";
import { pause, randomAddress, send, type Outcome } from "./http.ts";
import type { PayTarget } from "./paymentTargets.ts";

/** A browser keeps retrying one key this long at most before the proof counts it as given up. */
const GIVE_UP_MS = 180_000;
/** One in ten payments uses the sandbox's declining card: refusals must replay too. */
export const DECLINED_CARD = "4000000000000002";
/** How often a record is paid by two browsers at once (two keys, one charge at most). */
const CONTENDED = 0.25;
/** The answers that are not the key's own stored result (another key holds the record). */
const BUSY = /Reload the page in a moment\./;

/** One idempotency key's story, as its browser saw it. */
export interface KeyLog {
  key: string;
  subject: string;
  requests: number;
  networkErrors: number;
  serverErrors: number;
  inProgress: number;
  /** The first final answer (null when the browser gave up). */
  first: { status: number; body: unknown } | null;
  /** The same key sent once more after the final answer (a reload, a double submit). */
  replay: { status: number; body: unknown } | null;
  /** True when `first` is another key's "being processed" answer: it is not this key's result. */
  busy: boolean;
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const messageOf = (body: unknown) =>
  (body as { data?: { message?: string }[] } | null)?.data?.[0]?.message ?? "";

/** Sends the key's form until a final answer comes: retries after no answer, a 5xx or "still processing". */
async function untilFinal(base: string, path: string, form: URLSearchParams, address: string, log: KeyLog) {
  const began = Date.now();
  while (Date.now() - began < GIVE_UP_MS) {
    log.requests++;
    const res: Outcome = await send(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": address },
      body: form,
    });
    if (res.status === 0) log.networkErrors++;
    else if (res.status >= 500) log.serverErrors++;
    else {
      const body = parse(res.text);
      if (res.status !== 409 || messageOf(body) !== PAYMENT_IN_PROGRESS) return { status: res.status, body };
      log.inProgress++;
    }
    await pause();
  }
  return null;
}

/** The sandbox's card that pays. */
export const PAYING_CARD = "4242424242424242";
/** What the proofs type as the card's security code (never to be found in a log). */
export const PROOF_CVV = "123";

/** A guest payment's form for `target` with `card` and the browser's idempotency key. */
export const payForm = (target: PayTarget, card: string, key: string) =>
  new URLSearchParams({
    cardNumber: card,
    cardExpirationMonth: "12",
    cardExpirationYear: "30",
    cardCvv: PROOF_CVV,
    email: "proof@example.com",
    idempotencyKey: key,
    ...target.amountFields,
  });

/** One browser paying one record with its own key, then sending the same key once more. */
async function browser(base: string, target: PayTarget, logs: KeyLog[]) {
  const key = randomBytes(18).toString("base64url");
  const log: KeyLog = {
    key,
    subject: target.subject,
    requests: 0,
    networkErrors: 0,
    serverErrors: 0,
    inProgress: 0,
    first: null,
    replay: null,
    busy: false,
  };
  logs.push(log);
  const form = payForm(target, Math.random() < 0.1 ? DECLINED_CARD : PAYING_CARD, key);
  const address = randomAddress();
  log.first = await untilFinal(base, target.path, form, address, log);
  if (!log.first) return;
  log.busy = log.first.status === 409 && BUSY.test(messageOf(log.first.body));
  if (!log.busy) log.replay = await untilFinal(base, target.path, form, address, log);
}

/**
 * `concurrency` browsers pay the targets one after another until they run out or `running()`
 * turns false; a quarter of the records are paid by two browsers at once.
 */
export async function payAll(
  base: string,
  targets: PayTarget[],
  concurrency: number,
  running: () => boolean,
): Promise<KeyLog[]> {
  const logs: KeyLog[] = [];
  const queue = [...targets].sort(() => Math.random() - 0.5);
  const worker = async () => {
    while (running()) {
      const target = queue.pop();
      if (!target) return;
      const twice = Math.random() < CONTENDED;
      await Promise.all(
        twice ? [browser(base, target, logs), browser(base, target, logs)] : [browser(base, target, logs)],
      );
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return logs;
}

/** True when a replay answered exactly what the first final answer said. */
export const sameAnswer = (log: KeyLog) =>
  log.busy || (log.replay !== null && isDeepStrictEqual(log.first, log.replay));
