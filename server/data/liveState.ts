import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { channelGroups, channels, devices, sensors, subscriptions } from "../db/schema/index.ts";
import { secondsOf } from "../core/time.ts";
import { adjusted } from "./sensors.ts";
import { latestValue } from "./channelValue.ts";
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

/** Devices read per query: a heartbeat over thousands of watched devices takes a few. */
const IDS_PER_READ = 1000;

/**
 * The live fields of many devices in two queries per thousand, by id (one that no longer
 * exists is left out): the hub reads every device a round of announcements names at once.
 */
export async function liveDevices(db: Db, ids: readonly number[]): Promise<Map<number, LiveDevice>> {
  const found = new Map<number, LiveDevice>();
  for (let i = 0; i < ids.length; i += IDS_PER_READ) {
    for (const d of await readSome(db, ids.slice(i, i + IDS_PER_READ))) found.set(d.id, d);
  }
  return found;
}

/**
 * What admits a watcher (the public hash while the plan has public links, the subscription)
 * for many devices in one query per thousand, the readings left empty: the heartbeat's read.
 */
export async function liveAdmissions(db: Db, ids: readonly number[]): Promise<Map<number, LiveDevice>> {
  const found = new Map<number, LiveDevice>();
  for (let i = 0; i < ids.length; i += IDS_PER_READ) {
    const rows = await db
      .select({
        id: devices.id,
        subscriptionId: devices.subscriptionId,
        publicPageHash: devices.publicPageHash,
        features: subscriptions.features,
      })
      .from(devices)
      .innerJoin(subscriptions, eq(subscriptions.id, devices.subscriptionId))
      .where(inArray(devices.id, ids.slice(i, i + IDS_PER_READ)));
    for (const r of rows)
      found.set(r.id, {
        id: r.id,
        subscriptionId: r.subscriptionId,
        publicPageHash: planAllows(r.features, "publicUrl") ? r.publicPageHash : null,
        lastMessageTimestamp: null,
        pushStatus: 0,
        pushInterval: 0,
        uptime: 0,
        groups: [],
        readings: [],
        sensors: [],
      });
  }
  return found;
}

async function readSome(db: Db, ids: number[]): Promise<LiveDevice[]> {
  const rows = await db
    .select({ device: devices, features: subscriptions.features })
    .from(devices)
    .innerJoin(subscriptions, eq(subscriptions.id, devices.subscriptionId))
    .where(inArray(devices.id, ids));
  if (!rows.length) return [];
  const parts = await db
    .select({
      deviceId: sensors.deviceId,
      sensor: sensors,
      group: channelGroups,
      channel: channels,
      latest: latestValue,
    })
    .from(sensors)
    .innerJoin(channelGroups, eq(channelGroups.sensorId, sensors.id))
    .leftJoin(channels, eq(channels.channelGroupId, channelGroups.id))
    .where(inArray(sensors.deviceId, ids))
    .orderBy(asc(sensors.id), asc(channelGroups.id), asc(channels.id));
  const partsOf = new Map<number, typeof parts>();
  for (const p of parts) partsOf.set(p.deviceId, [...(partsOf.get(p.deviceId) ?? []), p]);
  return rows.map((row) => liveOf(row.device, row.features, partsOf.get(row.device.id) ?? []));
}

type DeviceRow = typeof devices.$inferSelect;
type Part = {
  sensor: typeof sensors.$inferSelect;
  group: typeof channelGroups.$inferSelect;
  channel: typeof channels.$inferSelect | null;
  /** The channel's latest reading (channelValue.ts), not its row's stored value. */
  latest: number | null;
};

/** One device's live fields from its row and its sensors' groups and channels (in id order). */
function liveOf(
  d: DeviceRow,
  features: typeof subscriptions.$inferSelect.features,
  parts: Part[],
): LiveDevice {
  const sensorsById = new Map<number, LiveSensor>();
  const groupsByKey = new Map<string, Group>();
  const readings: Reading[] = [];
  for (const { sensor: s, group: g, channel: c, latest } of parts) {
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
    if (c) readings.push({ key: c.channelKey, groupKey: g.channelKey, value: adjusted(latest, c.adjust) });
  }
  return {
    id: d.id,
    subscriptionId: d.subscriptionId,
    publicPageHash: planAllows(features, "publicUrl") ? d.publicPageHash : null,
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
