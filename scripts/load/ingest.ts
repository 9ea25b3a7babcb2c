// Ingestion at scale: N devices, each pushing its 20 channels once a minute through the real
// endpoint, their pushes spread evenly over the minute (device i at i·60/N s). Latency runs
// from the push's planned moment to its answer, so a server that falls behind shows it.
import { CHANNELS_PER_DEVICE, loadChannelKey, loadKey, loadMac } from "./fixtures.ts";

const P99_LIMIT_MS = 250;

export interface IngestStep {
  devices: number;
  pushes: number;
  p50: number;
  p99: number;
  failed: number;
  /** Pushes that got no answer or a 5xx other than an overloaded server's 503 with Retry-After. */
  unexpected: number;
  holds: boolean;
  /** The generator's own CPU over the step (1 = one core): near 1, the generator, not the server, is the limit. */
  generatorCpu?: number;
  /** Readings a second the step offered (devices × 20 / 60). */
  readingsPerSecond?: number;
  /** Answers by status, "200×990 503×10". */
  statuses?: string;
}

const pushBody = (i: number) =>
  JSON.stringify({
    macAddress: loadMac(i),
    readings: Array.from({ length: CHANNELS_PER_DEVICE }, (_, c) => ({
      channelKey: loadChannelKey(i, c),
      value: Math.round((20 + Math.sin(Date.now() / 60_000 + i + c)) * 100) / 100,
    })),
  });

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0;

/** Runs N devices for `seconds` and returns the push latencies' p50/p99 and failures. */
export async function ingestStep(base: string, devices: number, seconds: number): Promise<IngestStep> {
  const gap = 60_000 / devices;
  const start = performance.now() + 100;
  const cpu = process.cpuUsage();
  const times: number[] = [];
  let failed = 0;
  let unexpected = 0;
  const statuses = new Map<number, number>();
  const pushes: Promise<void>[] = [];
  for (let k = 0; k * gap < seconds * 1000; k++) {
    const planned = start + k * gap;
    const wait = planned - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const i = k % devices;
    pushes.push(
      fetch(`${base}/api/v1/device-data/push`, {
        method: "POST",
        // Each device from an address of its own, as a real fleet is (the target trusts the
        // proxy header): a key's first pushes are limited per client address (keyLimiter.ts).
        headers: {
          "content-type": "application/json",
          authorization: `Device ${loadKey(i)}`,
          "x-forwarded-for": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        },
        body: pushBody(i),
      })
        .then(async (res) => {
          await res.arrayBuffer();
          if (!res.ok) failed++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          // 503 with Retry-After is the server's designed answer to more than it can take: a
          // push that waited too long in its device's queue, or for a pooled connection (the
          // pool's 5 s connect timeout). Any other 5xx is not. A 503 in a step that holds is
          // impossible (it would not hold), and the first step must hold (tables.ts).
          const overloaded = res.status === 503 && res.headers.has("retry-after");
          if (res.status >= 500 && !overloaded) unexpected++;
          times.push(performance.now() - planned);
        })
        .catch(() => {
          failed++;
          unexpected++;
        }),
    );
  }
  await Promise.all(pushes);
  const used = process.cpuUsage(cpu);
  const generatorCpu = (used.user + used.system) / 1000 / (performance.now() - start);
  times.sort((a, b) => a - b);
  const p99 = pct(times, 99);
  return {
    devices,
    pushes: pushes.length,
    p50: pct(times, 50),
    p99,
    failed,
    unexpected,
    holds: failed === 0 && p99 <= P99_LIMIT_MS,
    generatorCpu,
    statuses: [...statuses].map(([code, n]) => `${code}×${n}`).join(" "),
    readingsPerSecond: (devices * CHANNELS_PER_DEVICE) / 60,
  };
}

/** Doubles N from `first` until p99 passes 250 ms, then tries the midpoint once. */
export async function ingestRamp(
  base: string,
  opts: { first: number; max: number; seconds: number; onStep: (s: IngestStep) => void },
) {
  let good = 0;
  let bad = 0;
  for (let n = opts.first; n <= opts.max; n *= 2) {
    const step = await ingestStep(base, n, opts.seconds);
    opts.onStep(step);
    if (!step.holds) {
      bad = n;
      break;
    }
    good = n;
  }
  if (bad && good) {
    const mid = Math.round((good + bad) / 2);
    const step = await ingestStep(base, mid, opts.seconds);
    opts.onStep(step);
    if (step.holds) good = mid;
  }
  return { largest: good, limitReached: bad > 0 };
}

/** One line of a step's figures, as the run prints it. */
export const describeStep = (s: IngestStep) =>
  `${s.devices} devices (${((s.devices * CHANNELS_PER_DEVICE) / 60).toFixed(0)} readings/s): ${s.pushes} pushes, p50 ${s.p50.toFixed(0)} ms, ` +
  `p99 ${s.p99.toFixed(0)} ms, ${s.failed} failed, generator CPU ${(100 * (s.generatorCpu ?? 0)).toFixed(0)} %, ${s.statuses ?? ""}`;
