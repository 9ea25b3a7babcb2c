import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { tz } from "./helpers.ts";

/**
 * The audit trail (docs/decisions.md, "Audit trail"): one row per state-changing call, chained
 * per subscription. Each row carries the SHA-256 of its content and of the row before it in
 * its subscription's chain (`seq` counts from 1 without gaps), so an edited, deleted, inserted
 * or reordered row breaks the chain at that row. No foreign keys: the trail outlives what it
 * describes (a deleted device, even a deleted subscription). Chain 0 holds what belongs to no
 * subscription (a failed sign-in for an unknown address).
 *
 * A row is written in its change's transaction without seq and hashes (unsealed), with the hash
 * of its content alone; the sealer (server/data/auditSeal.ts) chains it right after the commit.
 * So changes of one subscription never queue on its chain's head (issue 37's cost).
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    subscriptionId: integer("subscription_id").notNull(),
    /** Its place in the chain, from 1 without gaps; null until sealed. */
    seq: bigint("seq", { mode: "number" }),
    at: tz("at").notNull(),
    /** user, ops, device, system */
    actorKind: text("actor_kind").notNull(),
    actorId: integer("actor_id"),
    /** The person's email, the ops token's name, the device's MAC, or "system", as it was then. */
    actorLabel: text("actor_label").notNull(),
    /** What happened, as a dotted name (device.rename, sensor.update, session.signin, ...). */
    action: text("action").notNull(),
    /** The spec's entity type number, when the record is one of them. */
    entityType: integer("entity_type"),
    entityId: text("entity_id"),
    /** The device the change concerns, for the device page's own history. */
    deviceId: integer("device_id"),
    /** Only the fields that changed, before and after; never a secret (auditValues.ts). */
    old: jsonb("old").$type<Record<string, unknown> | null>(),
    new: jsonb("new").$type<Record<string, unknown> | null>(),
    /** Null until sealed. */
    prevHash: text("prev_hash"),
    hash: text("hash"),
    /**
     * The hash (an HMAC under AUDIT_KEY) of the content alone, made as the row is written; a
     * row with a nonce is sealed by linking this (auditChain.ts, linkHash). Null on rows
     * written before sealing existed.
     */
    contentHash: text("content_hash"),
    /** Random per row, part of its content: a copied row shows as a repeat. Null on older rows. */
    nonce: text("nonce"),
  },
  (t) => [
    uniqueIndex("audit_log_chain").on(t.subscriptionId, t.seq),
    /** The sealer's work list: small, since rows leave it within a moment. */
    index("audit_log_unsealed")
      .on(t.subscriptionId, t.id)
      .where(sql`seq is null`),
    index("audit_log_at").on(t.subscriptionId, t.at),
    index("audit_log_device")
      .on(t.deviceId, t.at)
      .where(sql`device_id is not null`),
  ],
);

/**
 * The head of each subscription's chain: its last seq and hash. The sealer locks this one row
 * while it chains what was committed, so one subscription's rows are chained by one sealer at a
 * time; it also catches rows cut off the end of the chain.
 */
export const auditHeads = pgTable("audit_heads", {
  subscriptionId: integer("subscription_id").primaryKey(),
  seq: bigint("seq", { mode: "number" }).notNull(),
  hash: text("hash").notNull(),
  /**
   * Where the chain starts after retention removed its oldest rows (server/flows/auditRetention.ts):
   * the first kept row's seq and the hash before it, so the rest still verifies.
   */
  firstSeq: bigint("first_seq", { mode: "number" }).notNull().default(1),
  firstPrevHash: text("first_prev_hash").notNull().default("0".repeat(64)),
});
