import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { channelGroups, channels, devices, sensors, subscriptions } from "../db/schema/index.ts";
import { secondsOf } from "../core/time.ts";
import { adjusted } from "./sensors.ts";
import { deviceStatus } from "../../src/domain/device.ts";
import { planAllows } from "../../src/domain/plan.ts";
import type { EpochSeconds } from "../../src/domain/brand.ts";
import type { LiveState } from "../../src/api/live.ts";

type Group = { key: string; hidden: boolean; lastReceived: number | null; sensorId: number };
type Reading = { key: string; groupKey: string; value: number | null };
type LiveSensor = LiveState["sensors"][number] & { id: number };

/** What a live page shows of a device, read once per announcement for all its watchers. */
export interface LiveDevice {
  id: number;
  subscriptionId: number;
  /** Who may watch it publicly: the current hash, while the plan has public links. */
  publicPageHash: string | null;
  lastMessageTimestamp: number | null;
  pushStatus: number;
  pushInterval: number;
  uptime: number;
  groups: Group[];
  readings: Reading[];
  sensors: LiveSensor[];
}

const seconds = (at: Date | null) => (at ? secondsOf(at) : null);

/** The device's live fields, or null when it no longer exists. */
export async function liveDevice(db: Db, id: number): Promise<LiveDevice | null> {
  const [row] = await db
    .select({ device: devices, features: subscriptions.features })
    .from(devices)
    .innerJoin(subscriptions, eq(subscriptions.id, devices.subscriptionId))
    .where(eq(devices.id, id));
  if (!row) return null;
  const d = row.device;
  const parts = await db
    .select({ sensor: sensors, group: channelGroups, channel: channels })
    .from(sensors)
    .innerJoin(channelGroups, eq(channelGroups.sensorId, sensors.id))
    .leftJoin(channels, eq(channels.channelGroupId, channelGroups.id))
    .where(eq(sensors.deviceId, id))
    .orderBy(asc(sensors.id), asc(channelGroups.id), asc(channels.id));
  const sensorsById = new Map<number, LiveSensor>();
  const groupsByKey = new Map<string, Group>();
  const readings: Reading[] = [];
  for (const { sensor: s, group: g, channel: c } of parts) {
    sensorsById.set(s.id, {
      id: s.id,
      macAddress: s.macAddress,
      battery: s.battery,
      signal: s.signal,
      pluggedIn: s.pluggedIn,
      lastReceived: seconds(s.lastReceivedAt),
    });
    groupsByKey.set(g.channelKey, {
      key: g.channelKey,
      hidden: g.isHidden,
      lastReceived: seconds(g.lastReceivedAt),
      sensorId: s.id,
    });
    if (c) readings.push({ key: c.channelKey, groupKey: g.channelKey, value: adjusted(c.value, c.adjust) });
  }
  return {
    id: d.id,
    subscriptionId: d.subscriptionId,
    publicPageHash: planAllows(row.features, "publicUrl") ? d.publicPageHash : null,
    lastMessageTimestamp: seconds(d.lastMessageAt),
    pushStatus: d.pushStatus,
    pushInterval: d.pushInterval,
    uptime: d.uptime,
    groups: [...groupsByKey.values()],
    readings,
    sensors: [...sensorsById.values()],
  };
}

/**
 * The state message for one audience: a public watcher gets neither hidden channel groups
 * nor sensors left without a shown group, as the public device details leave them out.
 */
export function liveStateOf(
  d: LiveDevice,
  audience: "owner" | "public",
  cause: LiveState["cause"],
  now: Date,
): LiveState {
  const shown = d.groups.filter((g) => audience === "owner" || !g.hidden);
  const shownKeys = new Set(shown.map((g) => g.key));
  const shownSensors = new Set(shown.map((g) => g.sensorId));
  const time = secondsOf(now);
  return {
    type: "state",
    cause,
    deviceId: d.id,
    time,
    lastMessageTimestamp: d.lastMessageTimestamp,
    pushStatus: d.pushStatus,
    pushInterval: d.pushInterval,
    uptime: d.uptime,
    status: deviceStatus(d.lastMessageTimestamp as EpochSeconds | null, d.pushInterval, time),
    readings: Object.fromEntries(
      d.readings.filter((r) => shownKeys.has(r.groupKey)).map((r) => [r.key, r.value]),
    ),
    groups: Object.fromEntries(shown.map((g) => [g.key, g.lastReceived])),
    sensors: d.sensors.filter((s) => shownSensors.has(s.id)).map(({ id: _id, ...s }) => s),
  };
}
