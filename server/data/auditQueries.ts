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
  // Chained rows only: one not (yet) in the chain has no place to be shown at, and one the
  // sealer would never chain (slipped in outside the portal) is for the check to name.
  const parts: SQL[] = [sql`l.subscription_id = ${subscriptionId}`, sql`l.seq > 0`];
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

/**
 * Who and what the subscription's trail holds, for the viewer's filters: of chained rows only,
 * as the list shows them (a row slipped in outside the portal names nobody there).
 */
export async function auditFacets(db: Db, subscriptionId: number) {
  const [actors, actions] = await Promise.all([
    rows<{ v: string }>(
      db,
      sql`select distinct actor_label as v from audit_log where subscription_id = ${subscriptionId} and seq > 0 order by 1 limit 500`,
    ),
    rows<{ v: string }>(
      db,
      sql`select distinct action as v from audit_log where subscription_id = ${subscriptionId} and seq > 0 order by 1 limit 200`,
    ),
  ]);
  return { actors: actors.map((r) => r.v), actions: actions.map((r) => r.v) };
}

/**
 * Every matching row, newest first, a span of seqs at a time (the CSV export): each span's rows
 * come as one JSON text aggregated by the database, a few milliseconds for thousands of rows
 * where row-by-row decoding took a hundred; and a bounded seq range reads no more than its span
 * whatever plan the statistics lead to (PGlite has no autovacuum to keep them). Rows appended
 * while it runs are not in it: the export is the trail up to its start.
 */
export async function* auditStream(db: Db, subscriptionId: number, f: AuditFilter, span = 10_000) {
  const [head] = await rows<{ seq: string | number; first_seq: string | number | null }>(
    db,
    sql`select seq, first_seq from audit_heads where subscription_id = ${subscriptionId}`,
  );
  if (!head) return;
  const names = new Map(
    (
      await rows<{ id: number; name: string }>(
        db,
        sql`select id, name from devices where subscription_id = ${subscriptionId}`,
      )
    ).map((d) => [Number(d.id), d.name]),
  );
  const first = Number(head.first_seq ?? 1);
  const spanBelow = async (hi: number) => {
    const [found] = await rows<{ j: string }>(
      db,
      sql`select coalesce(json_agg(json_build_array(l.seq, extract(epoch from l.at)::int8, l.actor_kind,
            l.actor_label, l.action, l.entity_type, l.entity_id, l.device_id, l.old, l.new) order by l.seq desc)::text, '[]') as j
          from audit_log l where ${where(subscriptionId, f, hi)} and l.seq >= ${Math.max(first, hi - span)}`,
    );
    return (JSON.parse(found!.j) as SpanRow[]).map(
      ([seq, at, actorKind, actor, action, entityType, entityId, deviceId, old, now]): AuditEntry => ({
        seq,
        at,
        actorKind,
        actor,
        action,
        entityType,
        entityId,
        deviceId,
        deviceName: deviceId === null ? null : (names.get(deviceId) ?? null),
        old,
        new: now,
      }),
    );
  };
  // The next span is asked for before this one is handed on: on PostgreSQL the database reads
  // it while this process writes the CSV of the last one.
  let hi = Number(head.seq) + 1;
  let next = hi > first ? spanBelow(hi) : null;
  while (next) {
    const page = await next;
    hi -= span;
    next = hi > first ? spanBelow(hi) : null;
    // A failed read ahead is thrown where it is awaited, not left unhandled meanwhile.
    next?.catch(() => {});
    if (page.length) yield page;
  }
}

type Json = Record<string, unknown> | null;
type SpanRow = [
  number,
  number,
  string,
  string,
  string,
  number | null,
  string | null,
  number | null,
  Json,
  Json,
];
