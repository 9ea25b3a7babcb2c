/*
 * The awkward values of the fuzz test (fuzz.ts) and how they are written into JSON, forms and
 * queries; every choice comes from a seeded PRNG.
 */

import { DEMO } from "../../server/seed/demo.ts";

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export type Rng = () => number;
export const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;

/** JSON text written as is: numbers and escapes a JavaScript value cannot hold. */
export class Raw {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

export const INT4_MAX = 2_147_483_647;
const STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u202eevil\u202c.exe",
  "مرحبا بالعالم",
  "שלום",
  "👩‍👩‍👧‍👦🏳️‍🌈",
  "e\u0301\u0302\u0303\u0304\u0305",
  "Z\u0334\u0321\u031ba\u0338l\u0337g\u0336o\u0335",
  "\ufeffBOM",
  "\u200b\u200c\u200d",
  "\ud800",
  "\udfff\ud800",
  "x".repeat(10_000),
  "%00",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "' or 1=1 --",
  "NaN",
  "Infinity",
  "-0",
  "1e400",
  "0x10",
  "true",
  "null",
  "{}",
  "ord-2147483648",
  "quo--1",
  "a@b",
  "SOMEONE@EXAMPLE.ORG",
  " someone@example.org ",
  "someone@example.org\u0000",
  "\r\nX-Injected: 1",
];
const NUMBERS = [
  0,
  -0,
  -1,
  1.5,
  -INT4_MAX - 1,
  INT4_MAX,
  INT4_MAX + 1,
  2 ** 53 + 2,
  1e20,
  -1e308,
  1e308,
  5e-324,
];
const RAW = [
  "1e400",
  "-1e400",
  '"\\ud800"',
  '"\\udfff\\ud800x"',
  '"\\u0000"',
  "123456789012345678901234567890",
  "-0.0",
  "1E+2",
];
const OTHERS: unknown[] = [null, true, false, [], ["a"], [["a"]], {}, { a: 1 }, [1, 2, 3], { id: 1 }];

/** One awkward value: a string, a number, raw JSON, or a value of another type. */
export function awkward(rng: Rng): unknown {
  const r = rng();
  if (r < 0.45) return pick(rng, STRINGS);
  if (r < 0.65) return pick(rng, NUMBERS);
  if (r < 0.78) return new Raw(pick(rng, RAW));
  if (r < 0.88) return [pick(rng, STRINGS)];
  return pick(rng, OTHERS);
}

/** JSON text of a value that may hold Raw pieces. */
export function toJson(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/** Text of a value in a form or query: raw text, JSON for objects. */
export const asText = (value: unknown) =>
  value instanceof Raw ? value.text : typeof value === "string" ? value : toJson(value);

/** Form or query encoding: arrays as repeated keys, objects also as `key[sub]` fields. */
export function toForm(fields: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (Array.isArray(value)) for (const item of value) params.append(key, asText(item));
    else if (value !== null && typeof value === "object" && !(value instanceof Raw))
      for (const [sub, item] of Object.entries(value)) params.append(`${key}[${sub}]`, asText(item));
    else params.append(key, asText(value));
  }
  return params.toString();
}

/** Paths to every leaf of a value: `["readings", 0, "value"]`. */
export function leafPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== "object") return prefix.length ? [prefix] : [];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return entries.flatMap(([k, v]) => leafPaths(v, [...prefix, k]));
}

/** A copy of the value with the leaf at `path` replaced. */
export function setAt(value: unknown, path: (string | number)[], leaf: unknown): Record<string, unknown> {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = leaf;
  return copy;
}

/** The seeded tracking number of order 5003's first shipment (server/seed/orders.ts). */
const SEEDED_TRACKING_NUMBER = "1Z999AA150030035021";

/**
 * Path parameters that name a seeded record, per route, so that requests get past the
 * reference check and reach the handler's work (a "1" would stop at the 404).
 */
export const PATH_EXAMPLES: Record<string, Record<string, string>> = {
  "/api/v1/orders/public/:ref": { ref: `ORD-${DEMO.orderId}-${DEMO.orderValidationId}` },
  "/api/v1/shipments/shipment-list/:ref": { ref: `ORD-${DEMO.orderId}-${DEMO.orderValidationId}` },
  "/api/v1/quotes/public/:id": { id: DEMO.openQuoteToken },
  "/shipments/tracking-details/:trackingNumber": { trackingNumber: SEEDED_TRACKING_NUMBER },
  "/order/public/:ref/pay-amount-due": { ref: `ORD-${DEMO.orderId}-${DEMO.orderValidationId}` },
  "/order/public/:ref/receipt/:paymentId": {
    ref: `ORD-${DEMO.orderId}-${DEMO.orderValidationId}`,
    paymentId: "1",
  },
  "/quote/public/:token/order": { token: DEMO.openQuoteToken },
  "/api/v1/device-data/public/device-details/:publicPageHash": { publicPageHash: DEMO.raDeviceHash },
  "/api/v1/device-data/channel-history/:channelKey": { channelKey: "00:1A:2B:3C:4D:01_W1A001_1200_0_1" },
};

/** The route's path with its parameters filled: a seeded record's where one is known, else "1". */
export const examplePath = (path: string, values: Record<string, string> = {}) =>
  path.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    encodeURIComponent(values[name] ?? PATH_EXAMPLES[path]?.[name] ?? "1"),
  );
