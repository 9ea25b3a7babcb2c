import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { type Db, inTransaction } from "../db/client.ts";
import { alertRules, devices, entityTags, tags } from "../db/schema/index.ts";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { EntityType } from "../../src/domain/enums.ts";
import { tagNameTakenMessage } from "../../src/domain/tags.ts";

/** A tag row as the API shows it. */
export interface TagRow {
  id: number;
  name: string;
  subscriptionId: number;
  type: string;
  deviceCount: number;
}

const DEVICE = EntityType.DEVICE;

/** Tags with how many of their subscription's devices carry them, by name. */
function tagsWithCounts(db: Db) {
  return db
    .select({
      id: tags.id,
      name: tags.name,
      subscriptionId: tags.subscriptionId,
      type: tags.type,
      deviceCount: sql<number>`count(${devices.id})::int`,
    })
    .from(tags)
    .leftJoin(entityTags, and(eq(entityTags.tagId, tags.id), eq(entityTags.entityType, DEVICE)))
    .leftJoin(
      devices,
      and(eq(devices.id, entityTags.entityId), eq(devices.subscriptionId, tags.subscriptionId)),
    )
    .groupBy(tags.id)
    .$dynamic();
}

/** The subscription's tags, by name (case-insensitive), each with its device count. */
export async function subscriptionTags(db: Db, subscriptionId: number): Promise<TagRow[]> {
  return tagsWithCounts(db)
    .where(eq(tags.subscriptionId, subscriptionId))
    .orderBy(sql`lower(${tags.name})`, asc(tags.id));
}

/** A tag by id (of any subscription: the caller authorizes), or null. */
export async function findTag(db: Db, id: number): Promise<TagRow | null> {
  const [row] = await tagsWithCounts(db).where(eq(tags.id, id));
  return row ?? null;
}

/** True for PostgreSQL's unique violation, however the driver wraps it. */
function isUniqueViolation(e: unknown): boolean {
  for (let err = e; err instanceof Error || (typeof err === "object" && err !== null);) {
    if ((err as { code?: unknown }).code === "23505") return true;
    err = (err as { cause?: unknown }).cause;
  }
  return false;
}

/** Refuses (404) unless every id is a device of the subscription; repeats count once. */
async function requireDevices(db: Db, subscriptionId: number, ids: readonly number[]) {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return wanted;
  const found = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.subscriptionId, subscriptionId), inArray(devices.id, wanted)));
  if (found.length !== wanted.length) throw new ApiError(404, NOT_FOUND);
  return wanted;
}

/** Refuses (404) unless every id is an alert rule of the subscription; repeats count once. */
async function requireAlertRules(db: Db, subscriptionId: number, ids: readonly number[]) {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return wanted;
  const found = await db
    .select({ id: alertRules.id })
    .from(alertRules)
    .where(and(eq(alertRules.subscriptionId, subscriptionId), inArray(alertRules.id, wanted)));
  if (found.length !== wanted.length) throw new ApiError(404, NOT_FOUND);
  return wanted;
}

/** Refuses (404) unless every id is a tag of the subscription; repeats count once. */
async function requireTags(db: Db, subscriptionId: number, ids: readonly number[]) {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return wanted;
  const found = await db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.subscriptionId, subscriptionId), inArray(tags.id, wanted)));
  if (found.length !== wanted.length) throw new ApiError(404, NOT_FOUND);
  return wanted;
}

/** Puts each tag on each device (already there: nothing happens). */
async function tagDevices(db: Db, deviceIds: readonly number[], tagIds: readonly number[]) {
  const values = deviceIds.flatMap((entityId) =>
    tagIds.map((tagId) => ({ tagId, entityType: DEVICE, entityId })),
  );
  if (values.length) await db.insert(entityTags).values(values).onConflictDoNothing();
}

/**
 * Creates a tag (name already trimmed) and puts it on the given devices of the subscription,
 * in one transaction. A name in use, case-insensitively, is a 409 — also when two people
 * create it at the same moment (the unique index decides).
 */
export async function createTag(
  db: Db,
  t: { subscriptionId: number; name: string; deviceIds: readonly number[]; alertIds?: readonly number[] },
): Promise<number> {
  return inTransaction(db, async (tx) => {
    const deviceIds = await requireDevices(tx, t.subscriptionId, t.deviceIds);
    const alertIds = await requireAlertRules(tx, t.subscriptionId, t.alertIds ?? []);
    const [row] = await tx
      .insert(tags)
      .values({ subscriptionId: t.subscriptionId, name: t.name })
      .onConflictDoNothing()
      .returning({ id: tags.id });
    if (!row) throw new ApiError(409, [{ field: "tag.name", message: tagNameTakenMessage(t.name) }]);
    await tagDevices(tx, deviceIds, [row.id]);
    // alertTagList: the tag on alert rules (entity type ALERT), as on devices.
    if (alertIds.length)
      await tx
        .insert(entityTags)
        .values(alertIds.map((entityId) => ({ tagId: row.id, entityType: EntityType.ALERT, entityId })))
        .onConflictDoNothing();
    return row.id;
  });
}

/**
 * Creates several tags at once, all or none: a name the list holds twice is a 400, a name in
 * use a 409 naming it.
 */
export async function createTags(db: Db, subscriptionId: number, names: readonly string[]) {
  const seen = new Set<string>();
  for (const name of names) {
    const key = name.toLowerCase();
    if (seen.has(key))
      throw new ApiError(400, [{ field: "tagList", message: `"${name}" is in the list twice.` }]);
    seen.add(key);
  }
  return inTransaction(db, async (tx) => {
    const created = await tx
      .insert(tags)
      .values(names.map((name) => ({ subscriptionId, name })))
      .onConflictDoNothing()
      .returning({ id: tags.id, name: tags.name });
    const taken = names.filter((n) => !created.some((c) => c.name === n));
    if (taken.length)
      throw new ApiError(
        409,
        taken.map((n) => ({ field: "tagList", message: tagNameTakenMessage(n) })),
      );
    return names.map((n) => created.find((c) => c.name === n)!);
  });
}

/** Renames a tag (name already trimmed); a name another tag of the subscription has is a 409. */
export async function renameTag(db: Db, id: number, name: string): Promise<void> {
  try {
    await db.update(tags).set({ name }).where(eq(tags.id, id));
  } catch (e) {
    if (isUniqueViolation(e))
      throw new ApiError(409, [{ field: "fields.name", message: tagNameTakenMessage(name) }]);
    throw e;
  }
}

/** Deletes a tag; its place on every device goes with it (entity_tags cascade). */
export async function deleteTag(db: Db, id: number): Promise<boolean> {
  const gone = await db.delete(tags).where(eq(tags.id, id)).returning({ id: tags.id });
  return gone.length > 0;
}

/**
 * Puts `add` on every device and takes `remove` off, in one transaction, after checking that
 * every device and tag is the subscription's (404 otherwise, like a missing id). Answers
 * each device's tags afterwards, by name.
 */
export async function applyDeviceTags(
  db: Db,
  a: { subscriptionId: number; deviceIds: number[]; add: number[]; remove: number[] },
) {
  return inTransaction(db, async (tx) => {
    const deviceIds = await requireDevices(tx, a.subscriptionId, a.deviceIds);
    const add = await requireTags(tx, a.subscriptionId, a.add);
    const remove = await requireTags(tx, a.subscriptionId, a.remove);
    await tagDevices(tx, deviceIds, add);
    if (remove.length)
      await tx
        .delete(entityTags)
        .where(
          and(
            eq(entityTags.entityType, DEVICE),
            inArray(entityTags.entityId, deviceIds),
            inArray(entityTags.tagId, remove),
          ),
        );
    return deviceTagLists(tx, deviceIds);
  });
}

/** Each device's tags, by name. */
async function deviceTagLists(db: Db, deviceIds: readonly number[]) {
  const rows = await db
    .select({ entityId: entityTags.entityId, id: tags.id, name: tags.name })
    .from(entityTags)
    .innerJoin(tags, eq(tags.id, entityTags.tagId))
    .where(and(eq(entityTags.entityType, DEVICE), inArray(entityTags.entityId, [...deviceIds])))
    .orderBy(sql`lower(${tags.name})`, asc(tags.id));
  return deviceIds.map((entityId) => ({
    entityId,
    tagList: rows.filter((r) => r.entityId === entityId).map(({ id, name }) => ({ id, name })),
  }));
}
