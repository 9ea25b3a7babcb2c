import { asc, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { channelGroups, channels, devices, sensors } from "../db/schema/index.ts";
import type { ChannelListEntry } from "../../src/api/deviceData.ts";
import { gapSecondsFor } from "../../src/domain/downsample.ts";
import { chartData } from "./chartData.ts";

const KIND_RANK = sql`case ${sensors.kind} when 'base' then 0 when 'wireless' then 1 when 'wired' then 2 else 3 end`;

/** How a channel is named to a person: "Cold Room - Temperature" (the sensor's label, else its type or address). */
export function channelTitle(sensorLabel: string, channelName: string) {
  return `${sensorLabel} - ${channelName}`;
}

/**
 * The name a person knows a sensor by, as SQL over channel_groups and sensors: its group's
 * label, else its own label, else its type, else its address (reports, charts, CSV headers).
 */
export const SENSOR_NAME = sql<string>`coalesce(nullif(${channelGroups.label}, ''), nullif(${sensors.label}, ''), ${sensors.sensorType}, ${sensors.macAddress})`;

const entryColumns = {
  channelId: channels.id,
  channelKey: channels.channelKey,
  channelName: channels.name,
  kind: channels.kind,
  units: channels.units,
  adjust: channels.adjust,
  isHidden: channelGroups.isHidden,
  sensorLabel: SENSOR_NAME,
  deviceId: devices.id,
  deviceName: devices.name,
  pushInterval: devices.pushInterval,
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
 * A channel's history over [start, end] (epoch seconds) with its adjustment, as the report
 * charts read it (server/data/chartData.ts): the raw samples over a short window, else the
 * rolled-up buckets' minimum and maximum at the times they were read, at most MAX_POINTS
 * (src/domain/downsample.ts).
 * The gaps' null points are left out (the contract's points are all readings).
 */
export async function channelHistory(
  db: Db,
  channel: { channelId: number; channelKey: string; adjust: number; pushInterval: number },
  start: number,
  end: number,
): Promise<{ bucketSeconds: number; points: [number, number][] }> {
  const [series] = await chartData(
    db,
    [{ ...channel, gapSeconds: gapSecondsFor(channel.pushInterval), ranges: [] }],
    { start, end },
  );
  return {
    bucketSeconds: series?.bucketSeconds ?? 0,
    points: (series?.points ?? []).filter((p): p is [number, number] => p[1] !== null),
  };
}
