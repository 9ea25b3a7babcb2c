import { index, integer, json, pgTable, serial, text } from "drizzle-orm/pg-core";
import { createdAt, tz } from "./helpers.ts";

/**
 * Tokens of the back-office operations API (`npm run ops -- token create`). Only the SHA-256
 * of a token is kept: it is shown once and looked up by its hash. A revoked token stays
 * listed (who had access, until when) and opens nothing.
 */
export const opsTokens = pgTable("ops_tokens", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: createdAt(),
  lastUsedAt: tz("last_used_at"),
  revokedAt: tz("revoked_at"),
});

/**
 * One row per successful ops write, keyed by the client's Idempotency-Key: the same key with
 * the same request (method, path and body, hashed in `fingerprint`) gets `response` again;
 * with another request, a 409. Written in the write's own transaction, so a failed write
 * leaves no row and its key can be retried.
 */
export const opsRequests = pgTable(
  "ops_requests",
  {
    idempotencyKey: text("idempotency_key").primaryKey(),
    fingerprint: text("fingerprint").notNull(),
    tokenId: integer("token_id").references(() => opsTokens.id, { onDelete: "set null" }),
    /** The `data` of the answer sent, replayed to every request with the same key. */
    response: json("response").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("ops_requests_token").on(t.tokenId)],
);
