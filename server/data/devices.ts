import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { devices, entityTags, links, subscriptions, tags as tagTable } from "../db/schema/index.ts";
import { secondsOf } from "../core/time.ts";
import { EntityType } from "../../src/domain/enums.ts";
import { deviceStatus } from "../../src/domain/device.ts";
import { epochSeconds } from "../../src/domain/brand.ts";
import type { DeviceGeneral, DeviceListItem } from "../../src/api/devices.ts";

export type DeviceRow = typeof devices.$inferSelect;
type Tag = { id: number; name: string };

/** A device by id with the subscription it belongs to, or null (the caller authorizes). */
export async function deviceById(db: Db, id: number): Promise<DeviceRow | null> {
  const [row] = await db.select().from(devices).where(eq(devices.id, id));
  return row ?? null;
}

/** Public page hashes are base64url tokens; anything else is not looked up at all. */
const HASH_FORM = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * The device a public page hash opens, or null: an unknown, deleted or regenerated hash, or a
 * subscription whose plan has no public URL feature, all look the same.
 */
export async function deviceByPublicHash(db: Db, hash: string): Promise<DeviceRow | null> {
  if (!HASH_FORM.test(hash)) return null;
  const [row] = await db
    .select({ device: devices })
    .from(devices)
    .innerJoin(subscriptions, eq(subscriptions.id, devices.subscriptionId))
    .where(and(eq(devices.publicPageHash, hash), sql`(${subscriptions.features} ->> 'publicUrl') = 'true'`));
  return row?.device ?? null;
}

/** The tags of each device, by device id, sorted by name. */
export async function tagsOfDevices(db: Db, ids: readonly number[]): Promise<Map<number, Tag[]>> {
  const byDevice = new Map<number, Tag[]>(ids.map((id) => [id, []]));
  if (!ids.length) return byDevice;
  const rows = await db
    .select({ deviceId: entityTags.entityId, id: tagTable.id, name: tagTable.name })
    .from(entityTags)
    .innerJoin(tagTable, eq(tagTable.id, entityTags.tagId))
    .where(and(eq(entityTags.entityType, EntityType.DEVICE), inArray(entityTags.entityId, [...ids])))
    .orderBy(sql`lower(${tagTable.name})`, asc(tagTable.id));
  for (const r of rows) byDevice.get(r.deviceId)?.push({ id: r.id, name: r.name });
  return byDevice;
}

const seconds = (at: Date | null) => (at ? secondsOf(at) : null);

/** The name of the device's link, when it is connected through one. */
async function linkNameOf(db: Db, linkId: number | null): Promise<string | null> {
  if (linkId === null) return null;
  const [row] = await db.select({ name: links.name }).from(links).where(eq(links.id, linkId));
  return row?.name ?? null;
}

/**
 * The device's general part. `audience: "public"` leaves out what only the owner sees: LAN
 * addresses, Wi-Fi name, the open-interface port and scheme, the link's id and the coordinates.
 */
export async function deviceGeneral(
  db: Db,
  d: DeviceRow,
  audience: "owner" | "public",
): Promise<DeviceGeneral> {
  const owner = audience === "owner";
  const tags = (await tagsOfDevices(db, [d.id])).get(d.id) ?? [];
  return {
    id: d.id,
    name: d.name,
    location: d.location,
    type: d.type,
    deviceType: d.deviceType,
    tagList: tags,
    publicPageHash: d.publicPageHash,
    uptime: d.uptime,
    pushStatus: d.pushStatus,
    pushInterval: d.pushInterval,
    isLinkConnected: d.linkId !== null,
    linkId: owner ? d.linkId : null,
    linkName: await linkNameOf(db, d.linkId),
    ethIp: owner ? d.ethIp : null,
    wlanIp: owner ? d.wlanIp : null,
    wifiName: owner ? d.wifiName : null,
    isHttps: owner ? d.isHttps : false,
    httpPort: owner ? d.httpPort : null,
    macAddress: d.macAddress,
    serialnumber: d.serialnumber,
    firmware: d.firmware,
    latestFirmware: d.latestFirmware,
    model: d.model,
    imageUrl: d.imageUrl,
    warrantyEndDate: seconds(d.warrantyEndDate),
    lastMessageTimestamp: seconds(d.lastMessageAt),
    deviceAssignmentStartDate: seconds(d.assignmentStartAt),
    isSuspended: d.isSuspended,
    capacityJson: d.capacityJson ?? null,
    geocode: owner ? (d.geocode ?? null) : null,
  };
}

/** Devices of a subscription (or of one link in it) for the device list, by name. */
export async function deviceList(
  db: Db,
  subscriptionId: number,
  now: Date,
  linkId?: number,
): Promise<DeviceListItem[]> {
  const where = linkId
    ? and(eq(devices.subscriptionId, subscriptionId), eq(devices.linkId, linkId))
    : eq(devices.subscriptionId, subscriptionId);
  const rows = await db
    .select()
    .from(devices)
    .where(where)
    .orderBy(sql`lower(${devices.name})`, asc(devices.id));
  const tags = await tagsOfDevices(
    db,
    rows.map((r) => r.id),
  );
  const nowS = epochSeconds(now.getTime() / 1000);
  return rows.map((d) => ({
    id: d.id,
    name: d.name,
    type: d.type,
    deviceType: d.deviceType,
    tagList: tags.get(d.id) ?? [],
    location: d.location,
    geocode: d.geocode ?? null,
    lastMessageTimestamp: seconds(d.lastMessageAt),
    pushInterval: d.pushInterval,
    status: deviceStatus(seconds(d.lastMessageAt), d.pushInterval, nowS),
  }));
}

/** A link of the subscription by id, or null. */
export async function linkById(db: Db, id: number) {
  const [row] = await db.select().from(links).where(eq(links.id, id));
  return row ?? null;
}
