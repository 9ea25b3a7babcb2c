import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { rows, type Db } from "../../server/db/client.ts";
import { demoDeviceKey } from "../../server/seed/keys.ts";
import { publicOrderRef } from "../../src/domain/order.ts";
import { probe, type Sample } from "./probe.ts";
import { readingOf, type PushDevice, type PushLog } from "./pushes.ts";

/** The public addresses the readers fetch: an order, public device pages, the runtime config. */
export interface ReadPaths {
  paths: string[];
  /** Public page hashes of devices (the live clients watch these). */
  hashes: string[];
}

export async function readPaths(db: Db): Promise<ReadPaths> {
  const orders = await rows<{ id: number; v: string }>(
    db,
    sql`select id, validation_id as v from orders order by id limit 3`,
  );
  const devices = await rows<{ h: string }>(
    db,
    sql`select public_page_hash as h from devices
      where public_page_hash is not null and not is_suspended order by id`,
  );
  const hashes = devices.map((d) => d.h);
  return {
    paths: [
      ...orders.map((o) => `/api/v1/orders/public/${publicOrderRef(Number(o.id), o.v)}`),
      ...hashes.slice(0, 3).map((h) => `/api/v1/device-data/public/device-details/${h}`),
      "/runtime-config.json",
    ],
    hashes,
  };
}

/** What a traffic run collected: every request, and each push's fate for checkPushes. */
export interface Traffic {
  samples: Sample[];
  pushes: PushLog[];
}

/** The name a read is tabled under (its route, not its token). */
const readName = (path: string) =>
  path.startsWith("/api/v1/orders/") ? "order" : path.startsWith("/runtime") ? "config" : "device page";

/**
 * Steady traffic while `running()` holds: every device pushes all its channels, one push after
 * another (push n stamped `start + n`, as the kill proof's pushes), and `readers` clients fetch
 * the public reads in turn. Pushes that got no answer or a 5xx count as "unknown" (they may be
 * stored or not), 2xx as stored, other answers as refused.
 */
export async function drive(
  base: string,
  devices: PushDevice[],
  start: number,
  reads: string[],
  readers: number,
  running: () => boolean,
  timeoutMs = 30_000,
): Promise<Traffic> {
  const traffic: Traffic = { samples: [], pushes: [] };
  const pusher = async (device: PushDevice) => {
    for (let seq = 0; running(); seq++) {
      const body = JSON.stringify({
        macAddress: device.mac,
        readings: device.channels.map((c, i) => ({ channelKey: c.key, ...readingOf(start, seq, i) })),
      });
      const s = await probe(
        "push",
        `${base}/api/v1/device-data/push`,
        {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Device ${demoDeviceKey(device.mac)}`,
          },
          body,
        },
        timeoutMs,
      );
      traffic.samples.push(s);
      const ok = s.failure === null && s.status >= 200 && s.status < 300;
      const outcome = ok ? "stored" : s.status === 0 || s.status >= 500 || s.failure ? "unknown" : "refused";
      traffic.pushes.push({ mac: device.mac, seq, outcome });
      await sleep(ok ? 20 : 100);
    }
  };
  const reader = async (offset: number) => {
    for (let n = offset; running(); n++) {
      const path = reads[n % reads.length]!;
      const s = await probe(readName(path), `${base}${path}`, {}, timeoutMs);
      traffic.samples.push(s);
      await sleep(s.failure === null ? 10 : 100);
    }
  };
  await Promise.all([...devices.map(pusher), ...Array.from({ length: readers }, (_, i) => reader(i))]);
  return traffic;
}
