import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { rows, type Db } from "../../server/db/client.ts";
import { demoDeviceKey } from "../../server/seed/keys.ts";
import { send } from "./http.ts";

/** A demo device and its channels (ids for the check, keys for the push). */
export interface PushDevice {
  mac: string;
  channels: { id: number; key: string }[];
}

/** One push as the device sent it: its second, and whether the server answered 2xx. */
export interface PushLog {
  mac: string;
  seq: number;
  outcome: "stored" | "refused" | "unknown";
}

/** Every unsuspended demo device with channels (the simulator's set). */
export async function pushDevices(db: Db): Promise<PushDevice[]> {
  const list = await rows<{ mac: string; id: number; key: string }>(
    db,
    sql`select d.mac_address as mac, c.id, c.channel_key as key from channels c
      join channel_groups g on g.id = c.channel_group_id join sensors s on s.id = g.sensor_id
      join devices d on d.id = s.device_id where not d.is_suspended order by d.mac_address, c.id`,
  );
  const byMac = new Map<string, PushDevice>();
  for (const r of list) {
    const device = byMac.get(r.mac) ?? { mac: r.mac, channels: [] };
    device.channels.push({ id: Number(r.id), key: r.key });
    byMac.set(r.mac, device);
  }
  return [...byMac.values()];
}

/**
 * A reading's second and value: push n of a run is stamped `base + n` (a second no other push
 * of the device uses) with the value n*100 + the channel's index, so the check knows exactly
 * which rows each push must have left.
 */
export const readingOf = (base: number, seq: number, index: number) => ({
  time: base + seq,
  value: seq * 100 + index,
});

/** Each device pushes all its channels, one push after another, while `running()` holds. */
export async function pushAll(base: string, devices: PushDevice[], start: number, running: () => boolean) {
  const logs: PushLog[] = [];
  await Promise.all(
    devices.map(async (device) => {
      for (let seq = 0; running(); seq++) {
        const body = JSON.stringify({
          macAddress: device.mac,
          readings: device.channels.map((c, i) => ({ channelKey: c.key, ...readingOf(start, seq, i) })),
        });
        const res = await send(`${base}/api/v1/device-data/push`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Device ${demoDeviceKey(device.mac)}`,
          },
          body,
        });
        const outcome =
          res.status >= 200 && res.status < 300
            ? "stored"
            : res.status === 0 || res.status >= 500
              ? "unknown"
              : "refused";
        logs.push({ mac: device.mac, seq, outcome });
        await sleep(outcome === "stored" ? 20 : 200);
      }
    }),
  );
  return logs;
}

export interface PushCounts {
  pushes: number;
  answered2xx: number;
  noAnswer: number;
  refused: number;
  samplesChecked: number;
  /** A 2xx push with a channel missing or another value. */
  lost: number;
  /** A push with some of its channels stored and others not. */
  halfStored: number;
  /** A push that got no answer (the kill came first) but was stored whole: allowed, counted. */
  storedUnanswered: number;
}

/** Reads back every pushed second of every device and compares it with what each push was told. */
export async function checkPushes(
  db: Db,
  devices: PushDevice[],
  start: number,
  logs: PushLog[],
): Promise<PushCounts> {
  const stored = new Map<string, number>();
  for (const r of await rows<{ id: number; t: number; v: number }>(
    db,
    sql`select channel_id as id, extract(epoch from time)::int8 as t, value as v from samples
      where time >= to_timestamp(${start})`,
  ))
    stored.set(`${Number(r.id)}@${Number(r.t)}`, Number(r.v));
  const byMac = new Map(devices.map((d) => [d.mac, d]));
  const counts: PushCounts = {
    pushes: logs.length,
    answered2xx: 0,
    noAnswer: 0,
    refused: 0,
    samplesChecked: 0,
    lost: 0,
    halfStored: 0,
    storedUnanswered: 0,
  };
  for (const log of logs) {
    const device = byMac.get(log.mac)!;
    const present = device.channels.filter((c, i) => {
      const { time, value } = readingOf(start, log.seq, i);
      return stored.get(`${c.id}@${time}`) === value;
    }).length;
    counts.samplesChecked += device.channels.length;
    const whole = present === device.channels.length;
    if (present > 0 && !whole) counts.halfStored++;
    if (log.outcome === "stored") {
      counts.answered2xx++;
      if (!whole) counts.lost++;
    } else if (log.outcome === "unknown") {
      counts.noAnswer++;
      if (whole) counts.storedUnanswered++;
    } else counts.refused++;
  }
  return counts;
}
