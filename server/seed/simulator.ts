import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { channelGroups, channels, devices, sensors } from "../db/schema/index.ts";
import { demoDeviceKey } from "./keys.ts";
import { latestValue } from "../data/channelValue.ts";

/**
 * Keeps demo devices pushing: every interval each unsuspended device posts its channels'
 * next readings to the real push endpoint, exactly as a device in the field would.
 * Stale demo sensors stay silent so the portal keeps showing the 2-hour rule.
 */
export function startSimulator(db: Db, baseUrl: string, intervalSeconds: number) {
  let stopped = false;
  let startedAt = Date.now();
  const tick = async () => {
    const rows = await db
      .select({
        mac: devices.macAddress,
        key: channels.channelKey,
        kind: channels.kind,
        value: latestValue,
        last: sensors.lastReceivedAt,
        uptime: devices.uptime,
      })
      .from(channels)
      .innerJoin(channelGroups, eq(channels.channelGroupId, channelGroups.id))
      .innerJoin(sensors, eq(channelGroups.sensorId, sensors.id))
      .innerJoin(devices, eq(sensors.deviceId, devices.id))
      .where(eq(devices.isSuspended, false));
    const byDevice = new Map<string, { readings: { channelKey: string; value: number }[]; uptime: number }>();
    const freshSince = startedAt - 2 * 3_600_000;
    for (const r of rows) {
      if (r.last && r.last.getTime() < freshSince) continue;
      const entry = byDevice.get(r.mac) ?? { readings: [], uptime: r.uptime };
      entry.readings.push({ channelKey: r.key, value: drift(r.value ?? 20, r.kind) });
      byDevice.set(r.mac, entry);
    }
    for (const [mac, entry] of byDevice) {
      if (stopped) return;
      await fetch(`${baseUrl}/api/v1/device-data/push`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Device ${demoDeviceKey(mac)}` },
        body: JSON.stringify({
          macAddress: mac,
          uptime: entry.uptime + intervalSeconds,
          readings: entry.readings,
        }),
      }).catch(() => {});
    }
  };
  const timer = setInterval(
    () => void tick().catch((e) => console.error("simulator:", e)),
    intervalSeconds * 1000,
  );
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
    tick,
    reset() {
      startedAt = Date.now();
    },
  };
}

/** A small random walk around the last value, rounded as devices report it. */
function drift(value: number, kind: string): number {
  const step = kind === "co2" ? 8 : kind === "humidity" ? 0.4 : 0.08;
  return Math.round((value + (Math.random() - 0.5) * 2 * step) * 100) / 100;
}
