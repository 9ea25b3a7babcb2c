// The operations proof's look at GET /metrics: who may scrape it, and whether its counters
// and gauges say what the counted traffic (opsTraffic.ts) and the live clients did.
import { setTimeout as sleep } from "node:timers/promises";
import { send } from "./http.ts";
import { watchLive } from "./liveClients.ts";
import { PUBLIC_API } from "../../src/api/paths.ts";

export interface MetricsCheck {
  /** Status of a scrape from this computer, from elsewhere (a proxy's header), with a wrong and the right token. */
  access: { local: number; elsewhere: number; wrongToken: number; token: number };
  /** The public order's 200s by its route pattern, in the counter and in the duration histogram. */
  orders: number;
  orderDurations: number;
  pushesAccepted: number;
  pushesRefused: number;
  charged: number;
  declined: number;
  /** Live clients subscribed, the gauge while they were, and the gauge once they had closed. */
  liveOpened: number;
  liveGauge: number;
  liveGaugeAfter: number;
  /** PostgreSQL's pool gauge (total connections); null where there is none (PGlite). */
  poolTotal: number | null;
  /** Names of the run's secrets found in the metrics text. */
  secretsFound: string[];
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

/** Opens live clients on `hashes`, scrapes while they are subscribed, and once they closed. */
async function withLiveClients(base: string, hashes: string[], scrape: () => Promise<string>) {
  let open = true;
  const watches = hashes.map((h) => watchLive(base, h, () => open));
  const subscribed = () =>
    watches.filter((w) => w.client.connections.at(-1)?.states.some((s) => s.cause === "subscribe")).length;
  for (let i = 0; i < 100 && subscribed() < hashes.length; i++) await sleep(100);
  const opened = subscribed();
  const during = await scrape();
  open = false;
  await Promise.all(watches.map((w) => w.done));
  // The server learns of a close a moment after the client: scrape until the gauge is back at 0.
  let after = await scrape();
  for (let i = 0; i < 20 && sumOf(after, "live_clients") > 0; i++) {
    await sleep(100);
    after = await scrape();
  }
  return { opened, during, after };
}

/** Scrapes as this computer and as others, with live clients open, and reads the series. */
export async function checkMetrics(
  base: string,
  token: string,
  hashes: string[],
  secrets: Record<string, string>,
): Promise<MetricsCheck> {
  const url = `${base}/metrics`;
  let requests = 0;
  const scrape = (headers: Record<string, string> = {}) => (requests++, send(url, { headers }));
  const local = await scrape();
  const elsewhere = await scrape(ELSEWHERE);
  const wrongToken = await scrape({ ...ELSEWHERE, authorization: "Bearer not-the-metrics-token-at-all" });
  const withToken = await scrape({ ...ELSEWHERE, authorization: `Bearer ${token}` });
  const live = await withLiveClients(base, hashes, async () => (await scrape()).text);
  const text = live.during;
  const order = [`route="${PUBLIC_API.order}"`, 'method="GET"', 'status="200"'];
  return {
    access: {
      local: local.status,
      elsewhere: elsewhere.status,
      wrongToken: wrongToken.status,
      token: withToken.status,
    },
    orders: sumOf(text, "http_requests_total", ...order),
    orderDurations: sumOf(text, "http_request_duration_seconds_count", ...order),
    pushesAccepted: sumOf(text, "device_pushes_total", 'outcome="accepted"'),
    pushesRefused: sumOf(text, "device_pushes_total", 'outcome="refused"'),
    charged: sumOf(text, "payment_charges_total", 'outcome="charged"'),
    declined: sumOf(text, "payment_charges_total", 'outcome="declined"'),
    liveOpened: live.opened,
    liveGauge: sumOf(text, "live_clients"),
    liveGaugeAfter: sumOf(live.after, "live_clients"),
    poolTotal: text.includes("db_pool_connections{")
      ? sumOf(text, "db_pool_connections", 'state="total"')
      : null,
    secretsFound: Object.entries(secrets)
      .filter(([, v]) => v && (text.includes(v) || live.after.includes(v)))
      .map(([name]) => name),
    requests,
  };
}
