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
 * The devices with these MAC addresses, with their channels and sensors: one statement for
 * every push arriving together (three per push were most of a push's cost at 500 pushes/s, and
 * then three per batch: each a round trip and a socket write on both sides). The channels and
 * sensors come as JSON arrays, [id, key, group, sensor] and [id, mac].
 */
export async function pushDevices(db: Db, macs: readonly string[]): Promise<Map<string, PushDevice>> {
  const found = await rows<{
    id: number;
    mac: string;
    hash: string;
    suspended: boolean;
    channels: [number, string, number, number][] | null;
    sensors: [number, string][] | null;
  }>(
    db,
    sql`select d.id, d.mac_address as mac, d.ingest_key_hash as hash, d.is_suspended as suspended,
          (select json_agg(json_build_array(c.id, c.channel_key, g.id, s.id)) from sensors s
            join channel_groups g on g.sensor_id = s.id join channels c on c.channel_group_id = g.id
            where s.device_id = d.id) as channels,
          (select json_agg(json_build_array(s.id, s.mac_address)) from sensors s where s.device_id = d.id) as sensors
        from devices d
        where d.mac_address in (select json_array_elements_text(${JSON.stringify([...new Set(macs)])}::json))`,
  );
  const out = new Map<string, PushDevice>();
  for (const d of found)
    out.set(d.mac, {
      id: d.id,
      hash: d.hash,
      suspended: d.suspended,
      channels: new Map(
        (d.channels ?? []).map(([id, key, groupId, sensorId]) => [key, { id, groupId, sensorId }]),
      ),
      sensors: new Map((d.sensors ?? []).map(([id, mac]) => [mac, id])),
    });
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
