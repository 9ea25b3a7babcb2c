import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { devices } from "../db/schema/index.ts";
import { randomToken } from "../core/crypto.ts";

/** Renames a device; the name arrives trimmed and checked by the contract. */
export async function renameDevice(db: Db, id: number, name: string) {
  await db.update(devices).set({ name }).where(eq(devices.id, id));
  return { id, name };
}

/**
 * Sets what a location update gives: the text when there is text, the coordinates when both
 * are there; what is left empty keeps its stored value.
 */
export async function relocateDevice(
  db: Db,
  id: number,
  update: { location: string | null; lat: number | null; lng: number | null },
) {
  const patch = {
    ...(update.location === null ? {} : { location: update.location }),
    ...(update.lat === null || update.lng === null ? {} : { geocode: { lat: update.lat, lng: update.lng } }),
  };
  const [row] = await db
    .update(devices)
    .set(patch)
    .where(eq(devices.id, id))
    .returning({ id: devices.id, location: devices.location, geocode: devices.geocode });
  return { id: row!.id, location: row!.location, geocode: row!.geocode ?? null };
}

/**
 * Gives the device a new public page token (256 bits) or none. Creating again replaces the
 * token, so the old page stops working in the same statement.
 */
export async function setPublicHash(db: Db, id: number, on: boolean): Promise<string | null> {
  const hash = on ? randomToken(32) : null;
  await db.update(devices).set({ publicPageHash: hash }).where(eq(devices.id, id));
  return hash;
}
