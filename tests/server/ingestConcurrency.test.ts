import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { MAX_WAITING_PUSHES, PUSHES_BUSY } from "../../server/data/ingest.ts";
import { COLD_HUM, COLD_TEMP, MAC, NOW_S, useIngestApp } from "./ingestKit.ts";

describe("one device's pushes at once", () => {
  const { ctx, push, sampleCount } = useIngestApp({ unlimited: true });

  it("answers 20 simultaneous pushes of one device in opposite channel orders, none refused", async () => {
    const keys = (
      await rows<{ key: string }>(
        ctx.database.db,
        sql`select c.channel_key as key from channels c join channel_groups g on g.id = c.channel_group_id
          join sensors s on s.id = g.sensor_id join devices d on d.id = s.device_id
          where d.mac_address = ${MAC} order by c.id`,
      )
    ).map((k) => k.key);
    // Overlapping subsets at scattered times, every other push in reverse order (an attack
    // of this shape deadlocked set-based updates on PostgreSQL).
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, p) =>
        push({
          macAddress: MAC,
          readings: (p % 2 ? keys.toReversed() : keys).flatMap((channelKey, j) =>
            (j + p) % 3 === 0
              ? []
              : [{ channelKey, value: p * 1000 + j, time: NOW_S - 3000 + ((p * 7919 + j * 104729) % 2900) }],
          ),
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
  });

  it("stores every one of 12 pushes of one device sent at once", async () => {
    const before = await sampleCount();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        push({
          macAddress: MAC,
          readings: [
            { channelKey: COLD_TEMP, value: i, time: NOW_S - 100 + i },
            { channelKey: COLD_HUM, value: 50 + i, time: NOW_S - 100 + i },
          ],
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(await sampleCount()).toBe(before + 24);
  });

  it("keeps a device's pushes beyond those waiting out with 429, and stores every push it accepted", async () => {
    const before = await sampleCount();
    const count = MAX_WAITING_PUSHES * 3;
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        push({ macAddress: MAC, readings: [{ channelKey: COLD_TEMP, value: i, time: NOW_S - 1000 + i }] }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    const stored = statuses.filter((s) => s === 200).length;
    // The one running and those waiting, and more as turns end (65 of 192 on both databases here).
    expect(stored).toBeGreaterThan(MAX_WAITING_PUSHES);
    expect(stored).toBeLessThan(count);
    expect(statuses.filter((s) => s === 429).length).toBe(count - stored);
    const refused = answers.find((a) => a.status === 429)!;
    expect((await refused.json()).data).toEqual([{ field: null, message: PUSHES_BUSY }]);
    expect(await sampleCount()).toBe(before + stored);
  });
});
