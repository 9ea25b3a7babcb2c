import { and, asc, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import {
  alarmAckTokens,
  alarmEvents,
  alarms,
  alertAttempts,
  alertDeliveries,
  channels,
  devices,
} from "../db/schema/index.ts";
import type { AlarmRow } from "./alerts.ts";

/*
 * Alarms as people read them (issue 34): lists, one alarm with its device and channel, its
 * history and deliveries, the acknowledge link's alarm. Rules' SQL is in alerts.ts.
 */

/** Alarms with what a list shows of their device and channel. */
export interface AlarmView extends AlarmRow {
  deviceName: string;
  channelKey: string | null;
  channelName: string | null;
  channelKind: string | null;
  units: string | null;
}

function alarmViews(db: Db) {
  return db
    .select({
      alarm: alarms,
      deviceName: sql<string>`coalesce(nullif(${devices.name}, ''), ${devices.macAddress})`,
      channelKey: channels.channelKey,
      // "Chest Freezer - Temperature": the card's title and the channel, as the device page names them.
      channelName: sql<
        string | null
      >`(select coalesce(nullif(g.label, ''), nullif(s.label, ''), s.sensor_type, s.mac_address) || ' - ' || ${channels.name}
        from channel_groups g join sensors s on s.id = g.sensor_id where g.id = ${channels.channelGroupId})`,
      channelKind: channels.kind,
      units: channels.units,
    })
    .from(alarms)
    .innerJoin(devices, eq(devices.id, alarms.deviceId))
    .leftJoin(channels, eq(channels.id, alarms.channelId));
}
const flatten = (r: {
  alarm: AlarmRow;
  deviceName: string;
  channelKey: string | null;
  channelName: string | null;
  channelKind: string | null;
  units: string | null;
}): AlarmView => ({ ...r.alarm, ...r, alarm: undefined }) as unknown as AlarmView;

/** Active alarms (or the last 500 of all), active first, then newest. */
export async function alarmList(db: Db, subscriptionId: number, active: boolean, deviceId?: number) {
  const where = and(
    eq(alarms.subscriptionId, subscriptionId),
    active ? inArray(alarms.state, ["triggered", "acknowledged"]) : ne(alarms.state, "pending"),
    deviceId === undefined ? undefined : eq(alarms.deviceId, deviceId),
  );
  const found = await alarmViews(db)
    .where(where)
    .orderBy(
      sql`case ${alarms.state} when 'triggered' then 0 when 'acknowledged' then 1 else 2 end`,
      desc(alarms.id),
    )
    .limit(500);
  return found.map(flatten);
}

export async function alarmView(db: Db, id: number): Promise<AlarmView | undefined> {
  const [row] = await alarmViews(db).where(eq(alarms.id, id));
  return row ? flatten(row) : undefined;
}

export async function alarmHistory(db: Db, alarmId: number) {
  return db.select().from(alarmEvents).where(eq(alarmEvents.alarmId, alarmId)).orderBy(asc(alarmEvents.id));
}

export async function alarmDeliveries(db: Db, alarmId: number) {
  const list = await db
    .select({ d: alertDeliveries, event: alarmEvents.kind })
    .from(alertDeliveries)
    .innerJoin(alarmEvents, eq(alarmEvents.id, alertDeliveries.eventId))
    .where(eq(alertDeliveries.alarmId, alarmId))
    .orderBy(asc(alertDeliveries.id));
  const ids = list.map((l) => l.d.id);
  const attempts = ids.length
    ? await db
        .select()
        .from(alertAttempts)
        .where(inArray(alertAttempts.deliveryId, ids))
        .orderBy(asc(alertAttempts.id))
    : [];
  return list.map((l) => ({ ...l.d, event: l.event, log: attempts.filter((a) => a.deliveryId === l.d.id) }));
}

/** The alarm an acknowledge link opens, while the link lasts and the alarm is open. */
export async function ackLink(db: Db, tokenHash: string, now: Date) {
  const [row] = await db
    .select({
      alarmId: alarmAckTokens.alarmId,
      recipient: alarmAckTokens.recipient,
      expiresAt: alarmAckTokens.expiresAt,
    })
    .from(alarmAckTokens)
    .where(eq(alarmAckTokens.tokenHash, tokenHash));
  return row && row.expiresAt > now ? row : undefined;
}

/** Open alarms per device of a subscription (the device list's red state). */
export async function openAlarmDevices(db: Db, subscriptionId: number) {
  const found = await rows<{ device_id: number; channel_id: number | null; severity: string; state: string }>(
    db,
    sql`select device_id, channel_id, severity, state from alarms
        where subscription_id = ${subscriptionId} and state in ('triggered', 'acknowledged')`,
  );
  return found;
}
