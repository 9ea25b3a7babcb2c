import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { reportChannels, reportThresholds, reports, thresholdRanges } from "../db/schema/index.ts";
import { DEMO } from "./demo.ts";
import { seedSamples } from "./samples.ts";

/** Days of report history written with the records, so a first start answers at once. */
export const RECENT_DAYS = 2;

const DAY = 86_400_000;
const LAB = "00:1A:2B:3C:4D:01";
export const REPORT_CHANNELS = [
  {
    key: `${LAB}_W1A001_1200_0_1`,
    color: "#1e88e5",
    axis: 0,
    shape: { base: 4, amplitude: 1.5, noise: 0.6 },
  },
  { key: `${LAB}_W1A001_1200_0_2`, color: "#43a047", axis: 1, shape: { base: 76, amplitude: 6, noise: 2 } },
  {
    key: `${LAB}_W1A002_1200_0_1`,
    color: "#e53935",
    axis: 0,
    shape: { base: 37, amplitude: 0.4, noise: 0.3 },
  },
];

/** Two shared reports over the lab device (rolling 24 h and a fixed week) with thresholds, and their samples. */
export async function seedReports(
  db: Db,
  now: Date,
  subscriptionId: number,
  channelIds: Map<string, number>,
  sampleDays: number,
) {
  const end = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const [rolling] = await db
    .insert(reports)
    .values({
      subscriptionId,
      name: "Lab Climate — Last 24 Hours",
      publicHash: DEMO.reportHash,
      timeInterval: 86_400,
    })
    .returning();
  const [fixed] = await db
    .insert(reports)
    .values({
      subscriptionId,
      name: "Lab Climate — Audit Week",
      publicHash: DEMO.fixedReportHash,
      timeInterval: 0,
      startDate: new Date(end.getTime() - 30 * DAY),
      endDate: new Date(end.getTime() - 23 * DAY),
    })
    .returning();
  const coldRoom = channelIds.get(REPORT_CHANNELS[0]!.key)!;
  const thresholds = await db
    .insert(thresholdRanges)
    .values([
      {
        subscriptionId,
        name: "Cold room too warm",
        channelId: coldRoom,
        minValue: 8,
        maxValue: null,
        color: "#ffcdd2",
      },
      {
        subscriptionId,
        name: "Cold room too cold",
        channelId: coldRoom,
        minValue: null,
        maxValue: 1,
        color: "#bbdefb",
      },
    ])
    .returning();
  for (const report of [rolling!, fixed!]) {
    for (const rc of REPORT_CHANNELS) {
      await db
        .insert(reportChannels)
        .values({ reportId: report.id, channelId: channelIds.get(rc.key)!, color: rc.color, axis: rc.axis });
    }
    for (const t of thresholds)
      await db.insert(reportThresholds).values({ reportId: report.id, thresholdRangeId: t.id });
  }
  // The recent days come with the records; fillHistory (history.ts) writes the rest while
  // the portal already serves.
  for (const rc of REPORT_CHANNELS) {
    const days = Math.min(sampleDays, RECENT_DAYS);
    const id = channelIds.get(rc.key)!;
    // Without days of history the one sample is the channel's seeded value (a channel's value
    // is its newest sample, data/channelValue.ts); with them the chart's curve ends where it ends.
    const [seeded] = await rows<{ value: number | null }>(
      db,
      sql`select value from channels where id = ${id}`,
    );
    const endValue = days === 0 && seeded?.value != null ? { endValue: seeded.value } : {};
    await seedSamples(db, id, rc.shape, { end, days, stepMinutes: 1, ...endValue });
    // The device card shows the newest sample, as after a push: not a value the chart never had.
    await db.execute(sql`
      update channels c set value = s.value, value_at = s.time
      from (select value, time from samples where channel_id = ${id} order by time desc limit 1) s
      where c.id = ${id}`);
  }
  // Every other channel gets two days of ten-minute samples for device pages and downloads,
  // ending on its current value when its sensor last reported (a stale sensor's stop then).
  const latest = await rows<{ id: number; value: number | null; at: Date | string | null }>(
    db,
    sql`select c.id, c.value, g.last_received_at as at from channels c
        join channel_groups g on g.id = c.channel_group_id`,
  );
  for (const [key, id] of channelIds) {
    if (REPORT_CHANNELS.some((rc) => rc.key === key)) continue;
    const last = latest.find((l) => l.id === id);
    const range = { days: Math.min(2, sampleDays), stepMinutes: 10 };
    if (last?.value === null || last?.value === undefined || !last.at)
      await seedSamples(db, id, { base: 20, amplitude: 2, noise: 0.5 }, { end, ...range });
    else {
      const swing = Math.min(2, Math.abs(last.value) * 0.05 + 0.2);
      await seedSamples(
        db,
        id,
        { base: 0, amplitude: swing, noise: swing / 4 },
        {
          end: new Date(Math.floor(new Date(last.at).getTime() / 1000) * 1000),
          endValue: last.value,
          ...range,
        },
      );
    }
  }
}
