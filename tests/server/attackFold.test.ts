import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { foldRollups } from "../../server/data/rollupFold.ts";
import { rollUpRange } from "../../server/data/rollups.ts";
import { fillHistory } from "../../server/seed/history.ts";
import { TEST_NOW } from "./helpers.ts";
import { useIngestApp } from "./ingestKit.ts";
import { readsVersusSamples, rollupsVersusSamples } from "./rollupKit.ts";

const MAC = "00:1A:2B:3C:4D:01";
const COLD_TEMP = `${MAC}_W1A001_1200_0_1`;
const COLD_HUM = `${MAC}_W1A001_1200_0_2`;
const INCUBATOR = `${MAC}_W1A002_1200_0_1`;
const NOW = TEST_NOW.getTime() / 1000;
const DAY = 86_400;

describe("attack on the rollup fold", () => {
  const { ctx, push: pushBody } = useIngestApp({ unlimited: true });
  const db = () => ctx.database.db;
  const push = (readings: { channelKey: string; value: number; time?: number }[]) =>
    pushBody({ macAddress: MAC, readings });
  const channelId = async (key: string) =>
    (await rows<{ id: number }>(db(), sql`select id from channels where channel_key = ${key}`))[0]!.id;
  const reset = async (horizon: number) => {
    await db().execute(sql`delete from samples`);
    await db().execute(sql`delete from sample_rollups`);
    await db().execute(sql`update devices set rolled_until = to_timestamp(${horizon})`);
  };

  it("finding 1 (closed): rollUpRange of one channel moves the whole device's horizon past its other channels' unfolded samples", async () => {
    const horizon = NOW - 2 * 3600 + 137;
    await reset(horizon);
    // After the horizon: no rollup yet, read from the samples.
    expect((await push([{ channelKey: COLD_HUM, value: 70, time: NOW - 1800 }])).status).toBe(200);
    expect((await push([{ channelKey: COLD_TEMP, value: 4.5, time: NOW - 1200 }])).status).toBe(200);
    const before = await readsVersusSamples(db());
    expect(before.read).toEqual(before.expected);
    // A rebuild of COLD_TEMP alone (what the demo start's rollUpUncovered does for a channel
    // whose samples all lie after the horizon).
    await rollUpRange(db(), [await channelId(COLD_TEMP)], NOW - 3 * 3600, NOW);
    const after = await readsVersusSamples(db());
    expect(after.read).toEqual(after.expected);
  });

  it("finding 1b (closed): a demo start (fillHistory) loses a sibling channel's recent samples from the charts", async () => {
    const horizon = NOW - 2 * 3600 + 137;
    await reset(horizon);
    // COLD_HUM has a folded (late) reading, so it counts as covered; COLD_TEMP has none.
    expect((await push([{ channelKey: COLD_HUM, value: 60, time: NOW - 3 * 3600 }])).status).toBe(200);
    expect((await push([{ channelKey: COLD_HUM, value: 70, time: NOW - 1800 }])).status).toBe(200);
    expect((await push([{ channelKey: COLD_TEMP, value: 4.5, time: NOW - 1200 }])).status).toBe(200);
    const before = await readsVersusSamples(db());
    expect(before.read).toEqual(before.expected);
    await fillHistory(db(), { now: TEST_NOW, sampleDays: 0 });
    const after = await readsVersusSamples(db());
    expect(after.read).toEqual(after.expected);
  });

  it("holds: readings at, just before and just after the horizon, repeated, then folded", async () => {
    const horizon = NOW - DAY + 137;
    await reset(horizon);
    const sent = [
      [
        { channelKey: COLD_TEMP, value: 1, time: horizon },
        { channelKey: COLD_TEMP, value: 2, time: horizon - 1 },
        { channelKey: COLD_TEMP, value: 3, time: horizon + 1 },
      ],
      [
        { channelKey: COLD_TEMP, value: 9, time: horizon },
        { channelKey: COLD_TEMP, value: -9, time: horizon - 1 },
        { channelKey: COLD_TEMP, value: 0, time: horizon + 1 },
      ],
      [{ channelKey: INCUBATOR, value: 37, time: horizon }],
    ];
    for (const r of sent) expect((await push(r)).status).toBe(200);
    const before = await readsVersusSamples(db());
    expect(before.read).toEqual(before.expected);
    await foldRollups(db(), new Date((NOW + DAY) * 1000));
    const { stored, recomputed } = await rollupsVersusSamples(db());
    expect(stored).toEqual(recomputed);
    // repeats after the fold: now late
    expect((await push([{ channelKey: COLD_TEMP, value: 5, time: horizon }])).status).toBe(200);
    const again = await rollupsVersusSamples(db());
    expect(again.stored).toEqual(again.recomputed);
  });
  it("holds: pushes (late, current, repeats) racing folds whose horizon moves through them", async () => {
    await reset(NOW - DAY);
    const keys = [COLD_TEMP, COLD_HUM, INCUBATOR];
    const jobs: Promise<unknown>[] = [];
    for (let k = 0; k < 40; k++) {
      const t = NOW - 3000 - ((k * 7919) % 5000);
      jobs.push(
        (async () => {
          const res = await push([
            { channelKey: keys[k % 3]!, value: k, time: t },
            { channelKey: keys[(k + 1) % 3]!, value: -k, time: NOW - 2 * DAY + k * 60 },
          ]);
          expect(res.status).toBe(200);
        })(),
      );
      if (k % 5 === 0) jobs.push(foldRollups(db(), new Date((NOW + k * 60) * 1000)));
    }
    await Promise.all(jobs);
    const mid = await readsVersusSamples(db());
    expect(mid.read).toEqual(mid.expected);
    await foldRollups(db(), new Date((NOW + DAY) * 1000));
    const { stored, recomputed } = await rollupsVersusSamples(db());
    expect(stored).toEqual(recomputed);
  });
});
