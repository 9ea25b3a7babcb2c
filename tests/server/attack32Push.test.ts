import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { keyLimiter } from "../../server/core/keyLimiter.ts";
import { demoToken } from "../../server/seed/demo.ts";
import { devices } from "../../server/db/schema/index.ts";
import { PUSH_LIMITS } from "../../server/deps.ts";
import { tooManyPushes } from "../../server/routes/devicePush.ts";
import { COLD_TEMP, MAC, NOW_S, useIngestApp } from "./ingestKit.ts";

/*
 * Issue 32, item 4: one valid device key sending 100 parallel maximum-size pushes slowed
 * /healthz to tens of seconds on PGlite. Pushes are now limited per device key.
 */

/** A push with the most readings a push may carry (2000). */
const biggest = (offset: number) => ({
  macAddress: MAC,
  readings: Array.from({ length: 2000 }, (_, i) => ({
    channelKey: COLD_TEMP,
    time: NOW_S - 86_400 + offset * 2000 + i,
    value: 20 + (i % 100) / 10,
  })),
});

describe("pushes per device key", () => {
  const { ctx, push } = useIngestApp();
  const NORTHWIND_HASH = demoToken("attack32-northwind");

  // First: the app (and its limiter) lives for the whole file, and the flood below drains the key.
  it("lets a device push one after another at its own pace", async () => {
    for (let i = 0; i < 20; i++) expect((await push(biggest(i))).status).toBe(200);
  });

  it("answers most of 100 parallel maximum-size pushes with one key 429 and Retry-After, while another customer's device page answers at once", async () => {
    await ctx.database.db
      .update(devices)
      .set({ publicPageHash: NORTHWIND_HASH })
      .where(eq(devices.name, "Northwind Dock Station"));
    const flood = Promise.all(Array.from({ length: 100 }, (_, i) => push(biggest(i))));
    const started = performance.now();
    const page = await ctx.app.request(`/api/v1/device-data/public/device-details/${NORTHWIND_HASH}`);
    const pageMs = performance.now() - started;
    expect(page.status).toBe(200);
    const answers = await flood;
    const statuses = answers.map((r) => r.status);
    const refused = answers.filter((r) => r.status === 429);
    // Four at a time, and 4 MB of burst: at most 4 MB / ~150 KB pushes get in before a refill.
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(30);
    expect(refused.length).toBeGreaterThanOrEqual(70);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    for (const r of refused) {
      const seconds = Number(r.headers.get("retry-after"));
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect((await r.json()).data).toEqual([{ field: null, message: tooManyPushes(seconds) }]);
    }
    console.log(`Another customer's device page during the flood: ${pageMs.toFixed(0)} ms.`);
    // Tens of seconds before the limit; a generous bound, the figure is printed.
    expect(pageMs).toBeLessThan(5000);
  });
});

describe("the per-key limiter", () => {
  const limits = {
    ...PUSH_LIMITS,
    inFlight: 2,
    burst: 3,
    perSecond: 1,
    burstBytes: 1000,
    bytesPerSecond: 100,
  };

  it.each([
    ["a third push in flight", [10, 10, 10], [true, true, false]],
    [
      "a fourth push in the burst, though the first ones finished",
      [10, 10, 10, 10],
      [true, true, true, false],
    ],
    ["a push beyond the bytes left", [600, 600], [true, false]],
  ] as const)("refuses %s", (_, sizes, expected) => {
    const limiter = keyLimiter(limits);
    const results = sizes.map((bytes, i) => {
      const taken = limiter.take("k", bytes, 0);
      if (taken.ok && i < 2 && expected.length > 3) taken.done();
      if (taken.ok && sizes.length === 2) taken.done();
      return taken.ok;
    });
    expect(results).toEqual(expected);
  });

  it("says how long to wait, and lets the key in again after that", () => {
    const limiter = keyLimiter(limits);
    for (let i = 0; i < 3; i++) {
      const taken = limiter.take("k", 10, 0);
      if (taken.ok) taken.done();
    }
    expect(limiter.take("k", 10, 0)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(limiter.take("k", 10, 1000).ok).toBe(true);
    const bytes = keyLimiter(limits);
    const first = bytes.take("k", 950, 0);
    if (first.ok) first.done();
    // 900 bytes wanted, 50 left, 100 a second: 8.5 s, said as 9.
    expect(bytes.take("k", 900, 0)).toEqual({ ok: false, retryAfterSeconds: 9 });
    expect(bytes.take("k", 900, 8500).ok).toBe(true);
  });

  it("keeps other keys apart and forgets idle keys when full", () => {
    const limiter = keyLimiter({ ...limits, maxKeys: 2 });
    const a = limiter.take("a", 10, 0);
    expect(a.ok).toBe(true);
    expect(limiter.take("b", 10, 0).ok).toBe(true);
    // Both are busy (b never finished): a third key waits.
    expect(limiter.take("c", 10, 0)).toEqual({ ok: false, retryAfterSeconds: 1 });
    if (a.ok) a.done();
    expect(limiter.take("c", 10, 60_000).ok).toBe(true);
    expect(limiter.size()).toBe(2);
  });
});
