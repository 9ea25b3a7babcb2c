import type { Endpoint } from "../../src/api/endpoint.ts";
import {
  INT4_MAX,
  asText,
  examplePath,
  awkward,
  leafPaths,
  pick,
  setAt,
  toForm,
  toJson,
  type Rng,
} from "./fuzzValues.ts";

/*
 * A deterministic generator of bad requests for the fuzz test (badInput.test.ts): from a
 * seed, the same requests in the same order, so a failure reproduces with FUZZ_SEED.
 */

/** What the generator knows of a route. */
export interface Target {
  method: string;
  path: string;
  kind: Endpoint["body"];
  /** A valid-looking input, from the route's contract (or `{}`). */
  example: Record<string, unknown>;
  /** Field names to spoil: the contract's, or the usual ones for a route without one. */
  fields: string[];
  /** Ids of rows of another subscription. */
  foreignIds: number[];
}

export interface Case {
  label: string;
  url: string;
  init: RequestInit;
}

const CONTENT_TYPES = [
  "application/json",
  "application/x-www-form-urlencoded",
  "text/plain",
  "application/xml",
  "application/json; charset=utf-16",
  "multipart/form-data; boundary=x",
  "application/json; boundary=" + "x".repeat(5000),
];
const UNKNOWN_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "isAdmin",
  "roleId",
  "",
  "x".repeat(1000),
  "😀",
  "a.b",
  "a[b]",
];
const PARAM_VALUES = [
  "0",
  "-1",
  String(INT4_MAX + 1),
  "1e3",
  " 1",
  "x".repeat(2000),
  "a%2Fb",
  "%E0%A4%A",
  "..",
  "%F0%9F%98%80",
  "%D8%A7%D9%84",
  "%ED%A0%80",
];

/** The request for an input of the target, sent the way its kind says (or as `as`). */
function encode(
  t: Target,
  url: string,
  input: unknown,
  as: Endpoint["body"] = t.kind,
): Case["init"] & { url: string } {
  const fields = (
    input !== null && typeof input === "object" && !Array.isArray(input) ? input : {}
  ) as Record<string, unknown>;
  if (as === "query" || (as === "none" && t.method === "GET")) {
    const query = toForm(fields);
    return { url: query ? `${url}?${query}` : url, method: t.method };
  }
  if (as === "form")
    return {
      url,
      method: t.method,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: toForm(fields),
    };
  return { url, method: t.method, headers: { "content-type": "application/json" }, body: toJson(input) };
}

/** Each kind of spoiled request, as (rng, target, url) → label and request. */
const MUTATIONS: [
  weight: number,
  make: (rng: Rng, t: Target, url: string) => [string, ReturnType<typeof encode>],
][] = [
  [
    20,
    (rng, t, url) => {
      const field = rng() < 0.85 && t.fields.length ? pick(rng, t.fields) : pick(rng, UNKNOWN_KEYS);
      const value = awkward(rng);
      return [`${field} = ${toJson(value).slice(0, 60)}`, encode(t, url, { ...t.example, [field]: value })];
    },
  ],
  [
    16,
    (rng, t, url) => {
      const paths = leafPaths(t.example);
      const path = paths.length ? pick(rng, paths) : ["x"];
      const value = awkward(rng);
      return [
        `${path.join(".")} = ${toJson(value).slice(0, 60)}`,
        encode(t, url, setAt(t.example, path, value)),
      ];
    },
  ],
  [
    8,
    (rng, t, url) => {
      const value = awkward(rng);
      const input = Object.fromEntries(t.fields.map((f) => [f, value]));
      return [`every field = ${toJson(value).slice(0, 60)}`, encode(t, url, input)];
    },
  ],
  [
    8,
    (rng, t, url) => {
      const extra = Object.fromEntries(
        Array.from({ length: 1 + Math.floor(rng() * 3) }, () => [pick(rng, UNKNOWN_KEYS), awkward(rng)]),
      );
      return [
        `unknown fields ${Object.keys(extra).join(",").slice(0, 60)}`,
        encode(t, url, { ...t.example, ...extra }),
      ];
    },
  ],
  [
    6,
    (rng, t, url) => {
      const body = pick(rng, ["", "null", "[]", '""', "{}", "0", "{", "\u0000"]);
      const type = pick(rng, [...CONTENT_TYPES, undefined]);
      return [
        `body ${JSON.stringify(body)} as ${type ?? "no type"}`,
        { url, method: t.method, headers: type ? { "content-type": type } : {}, body },
      ];
    },
  ],
  [
    12,
    (rng, t, url) => {
      const kind = pick(rng, ["json", "form", "query"] as const);
      const sent = encode(t, url, t.example, kind);
      const type = pick(rng, [...CONTENT_TYPES, undefined]);
      const headers: Record<string, string> = type ? { "content-type": type } : {};
      if (rng() < 0.3 && sent.body !== undefined) {
        const data = new FormData();
        for (const [k, v] of Object.entries(t.example))
          data.append(k, rng() < 0.5 ? new Blob([asText(v)]) : asText(v));
        return [`multipart of the example`, { url, method: t.method, body: data }];
      }
      return [`the example as ${kind}, sent as ${type ?? "no type"}`, { ...sent, headers }];
    },
  ],
  [
    6,
    (rng, t, url) => {
      const field = t.fields.length ? pick(rng, t.fields) : "x";
      const size = pick(rng, [300_000, 1_100_000]);
      const big = pick(rng, [
        "x".repeat(size),
        Array.from({ length: size / 10 }, () => 1),
        Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i])),
      ]);
      return [`${field} oversized (${size})`, encode(t, url, { ...t.example, [field]: big })];
    },
  ],
  [
    10,
    (rng, t, url) => {
      const params = [...t.path.matchAll(/:([A-Za-z]+)/g)];
      const values = [...PARAM_VALUES, ...t.foreignIds.map(String)];
      const filled = params.length
        ? t.path.replace(/:([A-Za-z]+)/g, () => pick(rng, values))
        : `${url}${pick(rng, ["/", "//", "/..", "%2F", "/x"])}`;
      return [`path ${filled.slice(0, 80)}`, encode(t, filled, t.example)];
    },
  ],
  [
    8,
    (rng, t, url) => {
      const key =
        t.fields.length && rng() < 0.7 ? pick(rng, t.fields) : pick(rng, ["token", "next", "ticket", "id"]);
      const query = pick(rng, [
        new URLSearchParams([[key, asText(awkward(rng))]]).toString(),
        `${key}=a&${key}=b&${key}[]=c`,
        `${key}=%zz&%=1`,
        `${key}[${key}][${key}]=1`,
        `${key}=${"y".repeat(100_000)}`,
        "&&&=&",
      ]);
      return [`query ${query.slice(0, 60)}`, { ...encode(t, url, t.example), url: `${url}?${query}` }];
    },
  ],
  [
    6,
    (rng, t, url) => {
      const idField =
        t.fields.find((f) => /(^id|Id)$/.test(f)) ?? pick(rng, ["id", "subscriptionId", "messageId"]);
      const id = t.foreignIds.length ? pick(rng, t.foreignIds) : 1;
      return [`${idField} of another subscription (${id})`, encode(t, url, { ...t.example, [idField]: id })];
    },
  ],
  [
    2,
    (rng, t, url) => {
      const authorization = pick(rng, [
        "Device ",
        "Device " + "k".repeat(5000),
        "Bearer x",
        "Device a b",
        "Basic Og==",
      ]);
      const cookie = pick(rng, [
        "portal_sid=",
        "portal_sid=" + "z".repeat(4000),
        "=;=;",
        "portal_sid=a; portal_sid=b",
      ]);
      const sent = encode(t, url, t.example);
      return [
        `credentials ${authorization.slice(0, 20)} / ${cookie.slice(0, 20)}`,
        { ...sent, headers: { ...(sent.headers as Record<string, string>), authorization, cookie } },
      ];
    },
  ],
];
const TOTAL_WEIGHT = MUTATIONS.reduce((sum, [w]) => sum + w, 0);

/** `count` spoiled requests for the target, the same ones for the same rng state. */
export function casesFor(rng: Rng, t: Target, count: number): Case[] {
  const url = examplePath(t.path);
  return Array.from({ length: count }, () => {
    let roll = rng() * TOTAL_WEIGHT;
    const [, make] = MUTATIONS.find(([w]) => (roll -= w) < 0) ?? MUTATIONS[0]!;
    const [label, { url: target, ...init }] = make(rng, t, url);
    // A GET carries no body (fetch refuses one); its input travels in the query.
    if (init.method === "GET") delete init.body;
    return { label, url: target, init };
  });
}

const deepArrays = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
const deepObjects = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;

/** Heavy shapes every route with a body meets once: deep nesting, huge forms, deep keys. */
export function heavyCases(t: Target): Case[] {
  const url = examplePath(t.path);
  const method = t.method;
  const json = (label: string, body: string): Case => ({
    label,
    url,
    init: { method, headers: { "content-type": "application/json" }, body },
  });
  const form = (label: string, body: string | FormData): Case => ({
    label,
    url,
    init:
      typeof body === "string"
        ? { method, headers: { "content-type": "application/x-www-form-urlencoded" }, body }
        : { method, body },
  });
  const deepQuery: Case = {
    label: "a query nested 5,000 deep",
    url: `${url}?token=${encodeURIComponent(deepArrays(5000))}`,
    init: { method: t.method },
  };
  if (t.method === "GET") return [deepQuery];
  const deepKey = new FormData();
  deepKey.append(`a${"[a]".repeat(5000)}`, "1");
  return [
    json("arrays nested 100,000 deep", deepArrays(100_000)),
    json("objects nested 100,000 deep", deepObjects(100_000)),
    json(
      "arrays nested 5,000 deep under every field",
      `{${[...t.fields, "id"].map((f) => `${JSON.stringify(f)}:${deepArrays(5000)}`).join(",")}}`,
    ),
    form("a form of 100,000 fields", Array.from({ length: 100_000 }, (_, i) => `f${i}=1`).join("&")),
    form("a form key nested 5,000 deep", `a${"[a]".repeat(5000)}=1`),
    form("multipart with a key nested 5,000 deep", deepKey),
    deepQuery,
  ];
}

/** A request as text for a failure report: method, URL, type and the start of the body. */
export function describeCase(c: Case): string {
  const headers = (c.init.headers ?? {}) as Record<string, string>;
  const body = c.init.body;
  const shown =
    typeof body === "string" ? JSON.stringify(body.slice(0, 300)) : body ? "(multipart)" : "(none)";
  return `${c.init.method} ${c.url.slice(0, 200)} [${headers["content-type"] ?? "no type"}] body ${shown}`;
}
