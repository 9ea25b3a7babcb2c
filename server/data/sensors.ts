import { asc, eq, getTableColumns } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { channelGroups, channels, devices, sensors } from "../db/schema/index.ts";
import { secondsOf } from "../core/time.ts";
import { latestValue } from "./channelValue.ts";
import type { ChannelGroup, Sensor } from "../../src/api/devices.ts";

type GroupRow = typeof channelGroups.$inferSelect;
type ChannelRow = typeof channels.$inferSelect;
type SensorRow = typeof sensors.$inferSelect;

const KIND_ORDER = ["base", "wireless", "wired", "other"] as const;
const isKind = (k: string): k is Sensor["kind"] => (KIND_ORDER as readonly string[]).includes(k);

/** A served reading: the stored value plus the channel's adjustment, without float noise. */
export const adjusted = (value: number | null, adjust: number) =>
  value === null ? null : Math.round((value + adjust) * 10_000) / 10_000;

const seconds = (at: Date | null) => (at ? secondsOf(at) : null);

/** One channel group as the API shows it. */
export function groupOf(g: GroupRow, chans: readonly ChannelRow[]): ChannelGroup {
  return {
    channelKey: g.channelKey,
    groupType: g.groupType,
    groupIndex: g.groupIndex,
    label: g.label,
    lastReceived: seconds(g.lastReceivedAt),
    isHidden: g.isHidden,
    channels: chans.map((c) => ({
      channelKey: c.channelKey,
      kind: c.kind,
      name: c.name,
      channelType: c.channelType,
      value: adjusted(c.value, c.adjust),
      adjust: c.adjust,
      conversion: { type: c.conversionType, units: c.units },
    })),
  };
}

function sensorOf(s: SensorRow, groups: ChannelGroup[]): Sensor {
  return {
    macAddress: s.macAddress,
    channelKey: groups[0]?.channelKey ?? "",
    kind: isKind(s.kind) ? s.kind : "other",
    sensorType: s.sensorType,
    label: s.label,
    isHub: s.isHub,
    battery: s.battery,
    pluggedIn: s.pluggedIn,
    batteryAlertTriggered: s.batteryAlertTriggered,
    signal: s.signal,
    lastReceived: seconds(s.lastReceivedAt),
    channelGroups: groups,
  };
}

/**
 * The device's sensors with their channel groups and channels, base station first, then
 * wireless, wired and other units; a public view leaves out hidden groups (and sensors left
 * with none).
 */
export async function sensorsOfDevice(
  db: Db,
  deviceId: number,
  audience: "owner" | "public",
): Promise<Sensor[]> {
  const rows = await db
    .select({ sensor: sensors, group: channelGroups, channel: channels, latest: latestValue })
    .from(sensors)
    .innerJoin(channelGroups, eq(channelGroups.sensorId, sensors.id))
    .leftJoin(channels, eq(channels.channelGroupId, channelGroups.id))
    .where(eq(sensors.deviceId, deviceId))
    .orderBy(asc(sensors.id), asc(channelGroups.groupType), asc(channelGroups.groupIndex), asc(channels.id));
  const bySensor = new Map<number, { sensor: SensorRow; groups: Map<number, [GroupRow, ChannelRow[]]> }>();
  for (const r of rows) {
    const entry = bySensor.get(r.sensor.id) ?? { sensor: r.sensor, groups: new Map() };
    bySensor.set(r.sensor.id, entry);
    const group = entry.groups.get(r.group.id) ?? [r.group, []];
    entry.groups.set(r.group.id, group);
    if (r.channel) group[1].push({ ...r.channel, value: r.latest });
  }
  const rank = (s: SensorRow) => (isKind(s.kind) ? KIND_ORDER.indexOf(s.kind) : KIND_ORDER.length);
  return [...bySensor.values()]
    .sort((a, b) => rank(a.sensor) - rank(b.sensor) || a.sensor.id - b.sensor.id)
    .map(({ sensor, groups }) => {
      const shown = [...groups.values()].filter(([g]) => audience === "owner" || !g.isHidden);
      return sensorOf(
        sensor,
        shown.map(([g, chans]) => groupOf(g, chans)),
      );
    })
    .filter((s) => s.channelGroups.length > 0);
}

/** A channel group by its key, with its channels and the device's subscription, or null. */
export async function groupByKey(db: Db, key: string) {
  const [row] = await db
    .select({
      group: channelGroups,
      sensor: sensors,
      deviceId: devices.id,
      subscriptionId: devices.subscriptionId,
    })
    .from(channelGroups)
    .innerJoin(sensors, eq(sensors.id, channelGroups.sensorId))
    .innerJoin(devices, eq(devices.id, sensors.deviceId))
    .where(eq(channelGroups.channelKey, key));
  if (!row) return null;
  const chans = await db
    .select({ ...getTableColumns(channels), value: latestValue })
    .from(channels)
    .where(eq(channels.channelGroupId, row.group.id))
    .orderBy(asc(channels.id));
  return { ...row, channels: chans };
}
export type GroupRecord = NonNullable<Awaited<ReturnType<typeof groupByKey>>>;
