// The operations proof's look at GET /metrics: who may scrape it, and whether its counters
// and gauges say what the counted traffic (opsTraffic.ts) and the live clients did.
import { setTimeout as sleep } from "node:timers/promises";
import { send } from "./http.ts";
import { watchLive } from "./liveClients.ts";

export interface MetricsCheck {
  /** Status of a scrape from this computer, from elsewhere (a proxy's header), with a wrong and the right token. */
  access: { local: number; elsewhere: number; wrongToken: number; token: number };
  orders: number;
  pushesAccepted: number;
  pushesRefused: number;
  charged: number;
  declined: number;
  liveOpened: number;
  liveGauge: number;
  /** PostgreSQL's pool gauge (total connections); null where there is none (PGlite). */
  poolTotal: number | null;
  /** Series of the request-duration histogram with a count. */
  durationSeries: number;
  /** The scrapes this check sent (each one a line of the request log). */
  requests: number;
}

/** Sum of the samples of `name` whose label text contains every one of `parts`. */
export function sumOf(text: string, name: string, ...parts: string[]): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!parts.every((p) => line.includes(p))) continue;
    sum += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return sum;
}

/** A request from another computer, as this computer's proxy would relay it. */
const ELSEWHERE = { "x-forwarded-for": "203.0.113.9" };

/** Opens live clients on `hashes`, scrapes while they are subscribed, then closes them. */
async function withLiveClients(base: string, hashes: string[], scrape: () => Promise<string>) {
  let open = true;
  const watches = hashes.map((h) => watchLive(base, h, () => open));
  const subscribed = () =>
    watches.every((w) => w.client.connections.at(-1)?.states.some((s) => s.cause === "subscribe"));
  for (let i = 0; i < 100 && !subscribed(); i++) await sleep(100);
  const text = await scrape();
  open = false;
  await Promise.all(watches.map((w) => w.done));
  return text;
}

/** Scrapes as this computer and as others, with live clients open, and reads the series. */
export async function checkMetrics(base: string, token: string, hashes: string[]): Promise<MetricsCheck> {
  const url = `${base}/metrics`;
  const local = await send(url, {});
  const elsewhere = await send(url, { headers: ELSEWHERE });
  const wrongToken = await send(url, {
    headers: { ...ELSEWHERE, authorization: "Bearer not-the-metrics-token-at-all" },
  });
  const withToken = await send(url, { headers: { ...ELSEWHERE, authorization: `Bearer ${token}` } });
  const text = await withLiveClients(base, hashes, async () => (await send(url, {})).text);
  const pool = sumOf(text, "db_pool_connections", 'state="total"');
  return {
    access: {
      local: local.status,
      elsewhere: elsewhere.status,
      wrongToken: wrongToken.status,
      token: withToken.status,
    },
    orders: sumOf(text, "http_requests_total", 'method="GET"', "/api/v1/orders/public/", 'status="200"'),
    pushesAccepted: sumOf(text, "device_pushes_total", 'outcome="accepted"'),
    pushesRefused: sumOf(text, "device_pushes_total", 'outcome="refused"'),
    charged: sumOf(text, "payment_charges_total", 'outcome="charged"'),
    declined: sumOf(text, "payment_charges_total", 'outcome="declined"'),
    liveOpened: hashes.length,
    liveGauge: sumOf(text, "live_clients"),
    poolTotal: text.includes("db_pool_connections{") ? pool : null,
    durationSeries: text.split("\n").filter((l) => l.startsWith("http_request_duration_seconds_count{"))
      .length,
    requests: 5,
  };
}
