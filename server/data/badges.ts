// What a public link's status badge needs (issue 36): how many alarms are open on what the link
// shows, and when its devices last pushed. Two small queries per badge.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";

interface DeviceTimes {
  lastMessageAt: Date | null;
  pushInterval: number;
}
export interface BadgeFacts {
  openAlarms: number;
  devices: DeviceTimes[];
}

const timesOf = (list: { last_message_at: string | Date | null; push_interval: number }[]) =>
  list.map((d) => ({
    lastMessageAt: d.last_message_at === null ? null : new Date(d.last_message_at),
    pushInterval: d.push_interval,
  }));

/**
 * A report's facts: alarms open (triggered or acknowledged) on its channels, or on its devices
 * without a channel (offline, stale sensor, battery); and its devices' push times.
 */
export async function reportBadgeFacts(db: Db, reportId: number): Promise<BadgeFacts> {
  const list = await rows<{ id: number; last_message_at: string | Date | null; push_interval: number }>(
    db,
    sql`select distinct d.id, d.last_message_at, d.push_interval
        from report_channels rc
          join channels c on c.id = rc.channel_id
          join channel_groups g on g.id = c.channel_group_id
          join sensors s on s.id = g.sensor_id
          join devices d on d.id = s.device_id
        where rc.report_id = ${reportId}`,
  );
  const ids = list.map((d) => d.id);
  const [open] = await rows<{ n: number }>(
    db,
    // Every alarm on a channel of the report is on one of its devices: the open-alarms-by-device index finds them.
    sql`select count(*)::int as n from alarms a
        where a.device_id = any(${`{${ids.join(",")}}`}::int[]) and a.state in ('triggered', 'acknowledged')
          and (a.channel_id is null
               or a.channel_id in (select channel_id from report_channels where report_id = ${reportId}))`,
  );
  return { openAlarms: open?.n ?? 0, devices: timesOf(list) };
}

/** A device's facts: any alarm open on it, and its own push times. */
export async function deviceBadgeFacts(
  db: Db,
  device: { id: number; lastMessageAt: Date | null; pushInterval: number },
): Promise<BadgeFacts> {
  const [open] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from alarms
        where device_id = ${device.id} and state in ('triggered', 'acknowledged')`,
  );
  return {
    openAlarms: open?.n ?? 0,
    devices: [{ lastMessageAt: device.lastMessageAt, pushInterval: device.pushInterval }],
  };
}
