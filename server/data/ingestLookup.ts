import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { groupCommit, type GroupCommit } from "../core/groupCommit.ts";
import type { Known } from "./ingestBatch.ts";

/** A pushing device as its pushes are checked: its key's hash, suspension, channels and sensors. */
export interface PushDevice {
  id: number;
  hash: string;
  suspended: boolean;
  /** Its row's count of changes to its sensors, groups and channels, when this copy was read. */
  shape: number;
  /** Its channels by channel key. */
  channels: Map<string, Known>;
  /** Its sensors' ids by MAC address. */
  sensors: Map<string, number>;
}

/** The statement of pushDevices: exported for the test of its plan. */
export const pushDevicesQuery = (macs: readonly string[]) =>
  sql`select d.id, d.mac_address as mac, d.ingest_key_hash as hash, d.is_suspended as suspended,
      d.shape_version as shape, (select json_agg(json_build_array(c.id, c.channel_key, g.id, s.id)) from sensors s
        join channel_groups g on g.sensor_id = s.id join channels c on c.channel_group_id = g.id
        where s.device_id = d.id) as channels,
      (select json_agg(json_build_array(s.id, s.mac_address)) from sensors s where s.device_id = d.id) as sensors
    from devices d
    where d.mac_address = any(array(select json_array_elements_text(${JSON.stringify([...new Set(macs)])}::json)))`;

/**
 * The devices with these MAC addresses, with their channels and sensors: one statement for
 * every push arriving together (three per push were most of a push's cost at 500 pushes/s, and
 * then three per batch: each a round trip and a socket write on both sides). The channels and
 * sensors come as JSON arrays, [id, key, group, sensor] and [id, mac]. The MACs are compared
 * with `= any(array(...))`, not `in (select ...)`: the planner guesses a set-returning function
 * gives 100 rows and answered `in` with a scan of every device (24 ms for one MAC among 3,000 on
 * PGlite), where `any` of the array is an index scan.
 */
export async function pushDevices(db: Db, macs: readonly string[]): Promise<Map<string, PushDevice>> {
  const found = await rows<{
    id: number;
    mac: string;
    hash: string;
    suspended: boolean;
    shape: number;
    channels: [number, string, number, number][] | null;
    sensors: [number, string][] | null;
  }>(db, pushDevicesQuery(macs));
  const out = new Map<string, PushDevice>();
  for (const d of found)
    out.set(d.mac, {
      id: d.id,
      hash: d.hash,
      suspended: d.suspended,
      shape: d.shape,
      channels: new Map(
        (d.channels ?? []).map(([id, key, groupId, sensorId]) => [key, { id, groupId, sensorId }]),
      ),
      sensors: new Map((d.sensors ?? []).map(([id, mac]) => [mac, id])),
    });
  return out;
}

const lookups = new WeakMap<Db, GroupCommit<string, PushDevice | null>>();
const memories = new WeakMap<Db, Map<string, PushDevice>>();
/** Devices remembered per process and database: a fleet's worth, the oldest forgotten first. */
export const REMEMBERED_DEVICES = 100_000;

/**
 * Forgets every remembered device of `db`. A copy is checked by its device's id and
 * shape_version, which only ever grow; a database wound back to an earlier state (the tests'
 * seed restored between tests; a backup restored, for which the portal is stopped) repeats them.
 */
export function forgetPushDevices(db: Db) {
  memories.delete(db);
}

/**
 * A push's device, from this process's memory when it was looked up before (a device's sensors
 * and channels change seldom, and a lookup was a statement per push), else from the database
 * together with the other pushes arriving meanwhile (one lookup runs at a time per pool slot).
 * A remembered copy is only a guess: the push's key, suspension and the copy's `shape` are
 * checked again under the device's row lock as the push is stored (ingestBatch.ts), and a push
 * the copy does not fit (a key, channel or sensor it does not know) asks again with `fresh`.
 */
export async function lookUpPushDevice(
  db: Db,
  mac: string,
  fresh = false,
): Promise<{ device: PushDevice | null; remembered: boolean }> {
  let memory = memories.get(db);
  if (!memory) memories.set(db, (memory = new Map()));
  const known = fresh ? undefined : memory.get(mac);
  if (known) return { device: known, remembered: true };
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
  const found = await batches.submit(mac);
  memory.delete(mac);
  if (found) {
    memory.set(mac, found);
    if (memory.size > REMEMBERED_DEVICES) memory.delete(memory.keys().next().value!);
  }
  return { device: found, remembered: false };
}
