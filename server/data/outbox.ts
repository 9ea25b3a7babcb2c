import { and, desc, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { outbox } from "../db/schema/index.ts";

/**
 * What replaces a one-time link's token in a kept message: a backup or a reader of the
 * outbox finds no link that still works (the tokens table holds only their hashes).
 */
export const LINK_REMOVED = "(removed)";
/** Every `token=` value in a text, as the reset, registration and invitation links carry it. */
const TOKEN_IN_LINK = "([?&]token=)[A-Za-z0-9_-]+";
const withoutLinks = sql`regexp_replace(${outbox.text}, ${TOKEN_IN_LINK}, ${`\\1${LINK_REMOVED}`}, 'g')`;

/** The outbox as the mailer uses it: every message is written first, then marked sent. */
export function outboxStore(db: Db) {
  return {
    async add(mail: { to: string; subject: string; text: string; secretUntil?: Date }, at: Date) {
      const [row] = await db
        .insert(outbox)
        .values({ ...mail, createdAt: at })
        .returning({ id: outbox.id });
      return row!.id;
    },
    /** Marks a message sent; its one-time link is cut out, since only the recipient needs it now. */
    async markSent(id: number, at: Date) {
      await db
        .update(outbox)
        .set({ sentAt: at, text: withoutLinks, secretUntil: null })
        .where(eq(outbox.id, id));
    },
  };
}

/**
 * Outbox housekeeping, safe to run on every instance at once (each statement is idempotent):
 * cuts the links out of messages whose links expired, and deletes messages older than the
 * retention. Returns what it did.
 */
export async function purgeMail(db: Db, now: Date, retentionDays: number) {
  const expired = await db
    .update(outbox)
    .set({ text: withoutLinks, secretUntil: null })
    .where(and(isNotNull(outbox.secretUntil), lt(outbox.secretUntil, now)))
    .returning({ id: outbox.id });
  const before = new Date(now.getTime() - retentionDays * 86_400_000);
  const deleted = await db.delete(outbox).where(lt(outbox.createdAt, before)).returning({ id: outbox.id });
  return { linksRemoved: expired.length, deleted: deleted.length };
}

/** The newest messages, for the demo's /dev/mailbox. */
export function latestMail(db: Db, limit: number) {
  return db.select().from(outbox).orderBy(desc(outbox.id)).limit(limit);
}
