import { asc, eq, sql, type SQL } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { channelGroups, channels, devices, sensors } from "../db/schema/index.ts";
import type { ChannelListEntry } from "../../src/api/devices.ts";
import { MAX_HISTORY_POINTS } from "../../src/api/devices.ts";

const KIND_RANK = sql`case ${sensors.kind} when 'base' then 0 when 'wireless' then 1 when 'wired' then 2 else 3 end`;

/** How a channel is named to a person: "Cold Room - Temperature" (the sensor's label, else its type or address). */
export function channelTitle(sensorLabel: string, channelName: string) {
  return `${sensorLabel} - ${channelName}`;
}

const entryColumns = {
  channelId: channels.id,
  channelKey: channels.channelKey,
  channelName: channels.name,
  kind: channels.kind,
  units: channels.units,
  adjust: channels.adjust,
  isHidden: channelGroups.isHidden,
  sensorLabel: sql<string>`coalesce(nullif(${channelGroups.label}, ''), nullif(${sensors.label}, ''), ${sensors.sensorType}, ${sensors.macAddress})`,
  deviceId: devices.id,
  deviceName: devices.name,
  subscriptionId: devices.subscriptionId,
};
const entryOf = (r: EntryRow): ChannelListEntry => ({
  channelKey: r.channelKey,
  name: channelTitle(r.sensorLabel, r.channelName),
  sensorLabel: r.sensorLabel,
  channelName: r.channelName,
  kind: r.kind,
  units: r.units,
  isHidden: r.isHidden,
});

/** Channels with their sensor's name and device, filtered by `where`. */
function selectEntries(db: Db, where: SQL | undefined) {
  return db
    .select(entryColumns)
    .from(channels)
    .innerJoin(channelGroups, eq(channelGroups.id, channels.channelGroupId))
    .innerJoin(sensors, eq(sensors.id, channelGroups.sensorId))
    .innerJoin(devices, eq(devices.id, sensors.deviceId))
    .where(where);
}
type EntryRow = Awaited<ReturnType<typeof selectEntries>>[number];

/** The device's channels, base station first, then wireless, wired and other units. */
export async function channelsOfDevice(db: Db, deviceId: number) {
  const found = await selectEntries(db, eq(devices.id, deviceId)).orderBy(
    KIND_RANK,
    asc(sensors.id),
    asc(channelGroups.groupType),
    asc(channelGroups.groupIndex),
    asc(channels.id),
  );
  return found.map((r) => ({ ...r, entry: entryOf(r) }));
}
export type DeviceChannel = Awaited<ReturnType<typeof channelsOfDevice>>[number];

/** A channel by key with its device's subscription, or null. */
export async function channelByKey(db: Db, key: string) {
  const [row] = await selectEntries(db, eq(channels.channelKey, key));
  return row ? { ...row, entry: entryOf(row) } : null;
}

/**
 * A channel's samples in [start, end] (epoch seconds) with its adjustment, at most 3000
 * points: the raw samples when they fit, else for each of 1500 time buckets its minimum and
 * maximum at the times they were read (so peaks survive the downsampling).
 */
export async function channelHistory(
  db: Db,
  channel: { channelId: number; adjust: number },
  start: number,
  end: number,
): Promise<{ bucketSeconds: number; points: [number, number][] }> {
  const range = sql`channel_id = ${channel.channelId} and time >= to_timestamp(${start}) and time <= to_timestamp(${end})`;
  const [count] = await rows<{ n: number }>(db, sql`select count(*)::int as n from samples where ${range}`);
  const value = sql`round((value + ${channel.adjust})::numeric, 4)::float8`;
  if ((count?.n ?? 0) <= MAX_HISTORY_POINTS) {
    const raw = await rows<{ t: number; v: number }>(
      db,
      sql`select extract(epoch from time)::int as t, ${value} as v from samples where ${range} order by time`,
    );
    return { bucketSeconds: 0, points: raw.map((r) => [r.t, r.v]) };
  }
  const width = Math.max(1, Math.ceil((end - start + 1) / (MAX_HISTORY_POINTS / 2)));
  const buckets = await rows<{ t: number; v: number }>(
    db,
    sql`with b as (
          select floor((extract(epoch from time) - ${start}) / ${width})::int as k, time, value
          from samples where ${range}
        ), ranked as (
          select time, value,
            row_number() over (partition by k order by value, time) as low,
            row_number() over (partition by k order by value desc, time) as high
          from b
        )
        select extract(epoch from time)::int as t, ${value} as v
        from ranked where low = 1 or high = 1 order by time`,
  );
  return { bucketSeconds: width, points: buckets.map((r) => [r.t, r.v]) };
}
