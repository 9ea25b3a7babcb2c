import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { groupCommit, type GroupCommit } from "../core/groupCommit.ts";
import type { Known } from "./ingestBatch.ts";

/** A pushing device as its pushes are checked: its key's hash, suspension, channels and sensors. */
export interface PushDevice {
  id: number;
  hash: string;
  suspended: boolean;
  /** Its channels by channel key. */
  channels: Map<string, Known>;
  /** Its sensors' ids by MAC address. */
  sensors: Map<string, number>;
}

/**
 * The devices with these MAC addresses, with their channels and sensors: three statements for
 * every push arriving together (three per push were most of a push's cost at 500 pushes/s).
 */
export async function pushDevices(db: Db, macs: readonly string[]): Promise<Map<string, PushDevice>> {
  const found = await rows<{ id: number; mac: string; hash: string; suspended: boolean }>(
    db,
    sql`select id, mac_address as mac, ingest_key_hash as hash, is_suspended as suspended from devices
        where mac_address in (select json_array_elements_text(${JSON.stringify([...new Set(macs)])}::json))`,
  );
  const out = new Map<string, PushDevice>();
  if (!found.length) return out;
  const ids = sql`${`{${found.map((d) => d.id).join(",")}}`}::int[]`;
  const [channelRows, sensorRows] = [
    await rows<Known & { key: string; deviceId: number }>(
      db,
      sql`select c.id, c.channel_key as key, g.id as "groupId", s.id as "sensorId", s.device_id as "deviceId"
          from sensors s join channel_groups g on g.sensor_id = s.id join channels c on c.channel_group_id = g.id
          where s.device_id = any(${ids})`,
    ),
    await rows<{ id: number; mac: string; deviceId: number }>(
      db,
      sql`select id, mac_address as mac, device_id as "deviceId" from sensors where device_id = any(${ids})`,
    ),
  ];
  const byId = new Map<number, PushDevice>();
  for (const d of found) {
    const device = { ...d, channels: new Map(), sensors: new Map() };
    out.set(d.mac, device);
    byId.set(d.id, device);
  }
  for (const c of channelRows)
    byId.get(c.deviceId)!.channels.set(c.key, { id: c.id, groupId: c.groupId, sensorId: c.sensorId });
  for (const s of sensorRows) byId.get(s.deviceId)!.sensors.set(s.mac, s.id);
  return out;
}

const lookups = new WeakMap<Db, GroupCommit<string, PushDevice | null>>();

/**
 * Looks a push's device up together with the other pushes arriving meanwhile: one lookup runs
 * at a time per pool slot, and what arrives during it goes in the next one.
 */
export function lookUpPushDevice(db: Db, mac: string): Promise<PushDevice | null> {
  let batches = lookups.get(db);
  if (!batches) {
    batches = groupCommit<string, PushDevice | null>(
      { maxBatch: 500, lingerMs: 0, maxRunning: 2 },
      async (macs) => {
        const found = await pushDevices(db, macs);
        return macs.map((m) => ({ ok: true, value: found.get(m) ?? null }));
      },
    );
    lookups.set(db, batches);
  }
  return batches.submit(mac);
}
