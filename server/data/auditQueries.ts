// Reading the audit trail for people: one subscription's rows, newest first, filtered, a page
// or a stream at a time (keyset on seq, never OFFSET).
import { sql, type SQL } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import type { AuditEntry, AuditFilter } from "../../src/api/audit.ts";

interface EntryRow {
  seq: string | number;
  at: Date | string;
  actor_kind: string;
  actor_label: string;
  action: string;
  entity_type: number | null;
  entity_id: string | null;
  device_id: number | null;
  device_name: string | null;
  old: Record<string, unknown> | null;
  new: Record<string, unknown> | null;
}

const entryOf = (r: EntryRow): AuditEntry => ({
  seq: Number(r.seq),
  at: Math.floor(new Date(r.at).getTime() / 1000),
  actorKind: r.actor_kind,
  actor: r.actor_label,
  action: r.action,
  entityType: r.entity_type,
  entityId: r.entity_id,
  deviceId: r.device_id,
  deviceName: r.device_name,
  old: r.old,
  new: r.new,
});

/** The filter as SQL conditions on audit_log `l`. */
function where(subscriptionId: number, f: AuditFilter, before: number | null): SQL {
  const parts: SQL[] = [sql`l.subscription_id = ${subscriptionId}`];
  if (before !== null) parts.push(sql`l.seq < ${before}`);
  if (f.actor) parts.push(sql`lower(l.actor_label) = lower(${f.actor})`);
  if (f.deviceId) parts.push(sql`l.device_id = ${Number(f.deviceId)}`);
  if (f.action) parts.push(sql`(l.action = ${f.action} or l.action like ${`${f.action}.%`})`);
  if (f.from) parts.push(sql`l.at >= to_timestamp(${Number(f.from)})`);
  if (f.to) parts.push(sql`l.at < to_timestamp(${Number(f.to)})`);
  return sql.join(parts, sql` and `);
}

/** A page of rows before `before` (a seq), newest first; the device's current name beside its id. */
export async function auditPage(
  db: Db,
  subscriptionId: number,
  f: AuditFilter,
  before: number | null,
  limit: number,
): Promise<AuditEntry[]> {
  const found = await rows<EntryRow>(
    db,
    sql`select l.seq, l.at, l.actor_kind, l.actor_label, l.action, l.entity_type, l.entity_id, l.device_id,
          d.name as device_name, l.old, l.new
        from audit_log l left join devices d on d.id = l.device_id and d.subscription_id = l.subscription_id
        where ${where(subscriptionId, f, before)}
        order by l.seq desc limit ${limit}`,
  );
  return found.map(entryOf);
}

/** Who and what the subscription's trail holds, for the viewer's filters. */
export async function auditFacets(db: Db, subscriptionId: number) {
  const [actors, actions] = await Promise.all([
    rows<{ v: string }>(
      db,
      sql`select distinct actor_label as v from audit_log where subscription_id = ${subscriptionId} order by 1 limit 500`,
    ),
    rows<{ v: string }>(
      db,
      sql`select distinct action as v from audit_log where subscription_id = ${subscriptionId} order by 1 limit 200`,
    ),
  ]);
  return { actors: actors.map((r) => r.v), actions: actions.map((r) => r.v) };
}

/** Every matching row, newest first, a page at a time (the CSV export). */
export async function* auditStream(db: Db, subscriptionId: number, f: AuditFilter, page = 5000) {
  for (let before: number | null = null; ;) {
    const found = await auditPage(db, subscriptionId, f, before, page);
    if (found.length) yield found;
    if (found.length < page) return;
    before = found.at(-1)!.seq;
  }
}
