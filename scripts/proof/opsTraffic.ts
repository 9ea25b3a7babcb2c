// The operations proof's traffic: a counted set of requests of every kind the metrics name
// (public reads, accepted and refused pushes, charged and declined cards, a sign-in), sent
// to a server process started just before, so its counters must equal what was sent.
import { randomBytes } from "node:crypto";
import { DEMO, DEMO_PASSWORD } from "../../server/seed/demo.ts";
import { demoDeviceKey } from "../../server/seed/keys.ts";
import { SESSION_COOKIE } from "../../server/http/cookies.ts";
import { sha256 } from "../../server/core/crypto.ts";
import { publicOrderRef } from "../../src/domain/order.ts";
import { send, type Outcome } from "./http.ts";
import type { PayTarget } from "./paymentTargets.ts";
import { DECLINED_CARD, payForm, PAYING_CARD } from "./payments.ts";
import type { Secrets } from "./opsLog.ts";
import type { PushDevice } from "./pushes.ts";

export const ORDER_READS = 30;
export const PUSHES_ACCEPTED = 10;
export const PUSHES_REFUSED = 3;

/** What was sent, what came back unexpected, and the secrets the requests carried. */
export interface Sent {
  /** Every request sent (all logged: none is /healthz or /ws). */
  requests: number;
  orders: number;
  pushesAccepted: number;
  pushesRefused: number;
  charged: number;
  declined: number;
  unexpected: string[];
  /** Secrets by name: what must never be found in the log. */
  secrets: Secrets;
}

/** Counts each request, and notes an answer that is not the one expected. */
function counter(sent: Sent) {
  return async (what: string, url: string, init: RequestInit, expected: (o: Outcome) => boolean) => {
    sent.requests++;
    const outcome = await send(url, init, 15_000);
    if (!expected(outcome)) sent.unexpected.push(`${what}: ${outcome.status} ${outcome.text.slice(0, 120)}`);
    return outcome;
  };
}

const is2xx = (o: Outcome) => o.status >= 200 && o.status < 300;

/** A sign-in with the demo password and the session check it opens; returns the session id. */
async function signIn(base: string, call: ReturnType<typeof counter>, sent: Sent) {
  sent.requests++;
  const res = await fetch(`${base}/gateway/submit`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ emailAddress: "viewer@example.com", password: DEMO_PASSWORD }),
  });
  await res.arrayBuffer();
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  const token = cookie?.split(";")[0]!.slice(SESSION_COOKIE.length + 1) ?? "";
  if (res.status !== 200 || !token) sent.unexpected.push(`sign-in: ${res.status}, session cookie ${!!token}`);
  await call(
    "session check",
    `${base}/api/v1/session`,
    { headers: { cookie: `${SESSION_COOKIE}=${token}` } },
    is2xx,
  );
  return token;
}

/** Sends the counted traffic: public order reads, pushes, payments and a sign-in. */
export async function knownTraffic(
  base: string,
  prep: { device: PushDevice; pay: PayTarget[] },
): Promise<Sent> {
  const sent: Sent = {
    requests: 0,
    orders: 0,
    pushesAccepted: 0,
    pushesRefused: 0,
    charged: 0,
    declined: 0,
    unexpected: [],
    secrets: { anywhere: {}, inRequests: {} },
  };
  const call = counter(sent);
  const orderPath = `/api/v1/orders/public/${publicOrderRef(DEMO.orderId, DEMO.orderValidationId)}`;
  for (let i = 0; i < ORDER_READS; i++, sent.orders++)
    await call("public order", `${base}${orderPath}`, {}, is2xx);
  const nowS = Math.floor(Date.now() / 1000);
  const key = demoDeviceKey(prep.device.mac);
  const push = (authorization: string, second: number) => ({
    method: "POST",
    headers: { "content-type": "application/json", authorization },
    body: JSON.stringify({
      macAddress: prep.device.mac,
      readings: prep.device.channels.map((c, i) => ({
        channelKey: c.key,
        value: 20 + i,
        time: nowS - second,
      })),
    }),
  });
  const url = `${base}/api/v1/device-data/push`;
  for (let i = 0; i < PUSHES_ACCEPTED; i++, sent.pushesAccepted++)
    await call("push", url, push(`Device ${key}`, 60 + i), is2xx);
  const wrongKey = randomBytes(32).toString("base64url");
  for (let i = 0; i < PUSHES_REFUSED; i++, sent.pushesRefused++)
    await call("push with a wrong key", url, push(`Device ${wrongKey}`, 30 + i), (o) => o.status === 401);
  const cards = [PAYING_CARD, PAYING_CARD, DECLINED_CARD];
  // The proof's own quotes (preparePayTargets lists them first): links no banner prints.
  const ours = prep.pay.slice(0, cards.length);
  for (const [i, card] of cards.entries()) {
    const target = ours[i]!;
    const form = payForm(target, card, randomBytes(18).toString("base64url"));
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    const paid = (o: Outcome) => (card === PAYING_CARD ? is2xx(o) : o.status >= 400 && o.status < 500);
    await call(
      `payment with ${card}`,
      `${base}${target.path}`,
      { method: "POST", headers, body: form },
      paid,
    );
    if (card === PAYING_CARD) sent.charged++;
    else sent.declined++;
  }
  const session = await signIn(base, call, sent);
  sent.secrets = {
    anywhere: {
      "card number": PAYING_CARD,
      "declined card number": DECLINED_CARD,
      "card field": "cardNumber",
      "security code field": "cardCvv",
      "session id": session,
      "session id as stored": sha256(session),
      "device key": key,
      "wrong device key": wrongKey,
      ...Object.fromEntries(ours.map((t, i) => [`payment link ${i + 1}`, t.path.split("/")[3]!])),
    },
    // The demo's start-up banner prints these on purpose; no request line may.
    inRequests: {
      "password field": "password",
      password: DEMO_PASSWORD,
      "order link token": DEMO.orderValidationId,
    },
  };
  return sent;
}
