import type { Db } from "../db/client.ts";
import { channelGroups, channels, devices, entityTags, sensors, tags } from "../db/schema/index.ts";
import { sha256 } from "../core/crypto.ts";
import { EntityType } from "../../src/domain/enums.ts";
import { DEVICE_SPECS, type SensorSpec } from "./deviceSpecs.ts";
import { demoDeviceKey } from "./keys.ts";

const HOUR = 3_600_000;

/** Seeds the demo devices with sensors, channel groups, channels and tags; returns channel ids by key. */
export async function seedDevices(
  db: Db,
  now: Date,
  ids: { acmeId: number; northwindId: number; labLinkId: number },
) {
  const allTags = await db.select().from(tags);
  const channelIds = new Map<string, number>();
  const deviceIds: number[] = [];
  for (const [i, d] of DEVICE_SPECS.entries()) {
    const subscriptionId = d.subscription === "acme" ? ids.acmeId : ids.northwindId;
    const [device] = await db
      .insert(devices)
      .values({
        subscriptionId,
        name: d.name,
        location: d.location,
        geocode: d.geocode,
        type: d.type,
        deviceType: d.deviceType,
        publicPageHash: d.hash,
        uptime: 86400 * (i + 3) + 3723,
        pushStatus: 1,
        pushInterval: 600,
        linkId: d.linked ? ids.labLinkId : null,
        ethIp: `192.168.10.${20 + i}`,
        wlanIp: i % 2 ? null : `10.0.0.${40 + i}`,
        wifiName: i % 2 ? null : "LabNet",
        isHttps: d.https,
        httpPort: d.port,
        macAddress: d.mac,
        serialnumber: `SN-${d.type}-${String(100200 + i)}`,
        firmware: d.firmware,
        latestFirmware: d.latestFirmware,
        model: d.model,
        imageUrl: `/devices/${d.type.toLowerCase()}.svg`,
        warrantyEndDate: new Date(now.getTime() + d.warrantyDays * 24 * HOUR),
        lastMessageAt: new Date(now.getTime() - 4 * 60_000),
        assignmentStartAt: new Date(now.getTime() - 400 * 24 * HOUR),
        isSuspended: d.suspended ?? false,
        capacityJson: { wirelessSlots: 16, wiredSlots: 4 },
        ingestKeyHash: sha256(demoDeviceKey(d.mac)),
      })
      .returning();
    deviceIds.push(device!.id);
    for (const s of d.sensors) await seedSensor(db, device!.id, d.mac, s, now, channelIds);
    for (const name of d.tags) {
      const tag = allTags.find((t) => t.name === name && t.subscriptionId === subscriptionId);
      if (tag)
        await db
          .insert(entityTags)
          .values({ tagId: tag.id, entityType: EntityType.DEVICE, entityId: device!.id });
    }
  }
  return { channelIds, deviceIds };
}

async function seedSensor(
  db: Db,
  deviceId: number,
  deviceMac: string,
  s: SensorSpec,
  now: Date,
  channelIds: Map<string, number>,
) {
  const last = new Date(now.getTime() - (s.staleHours ?? 0.07) * HOUR);
  const [sensor] = await db
    .insert(sensors)
    .values({
      deviceId,
      macAddress: s.mac,
      kind: s.kind,
      sensorType: s.sensorType,
      label: s.label,
      isHub: s.isHub ?? false,
      battery: s.battery ?? null,
      signal: s.signal ?? null,
      pluggedIn: s.pluggedIn ?? false,
      batteryAlertTriggered: s.batteryAlert ?? false,
      lastReceivedAt: last,
    })
    .returning();
  const groupKey = `${deviceMac}_${s.mac}_${s.groupType}_0`;
  const [group] = await db
    .insert(channelGroups)
    .values({
      sensorId: sensor!.id,
      channelKey: groupKey,
      groupType: s.groupType,
      groupIndex: 0,
      label: s.label,
      isHidden: s.hidden ?? false,
      lastReceivedAt: last,
    })
    .returning();
  for (const c of s.channels) {
    const key = `${groupKey}_${c.type}`;
    const [row] = await db
      .insert(channels)
      .values({
        channelGroupId: group!.id,
        channelKey: key,
        channelType: c.type,
        kind: c.kind,
        name: c.name,
        value: c.value,
        adjust: 0,
        conversionType: c.kind === "temperature" ? "temperature" : null,
        units: c.units,
      })
      .returning();
    channelIds.set(key, row!.id);
  }
}
