import { desc, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { outbox } from "../db/schema/index.ts";

/** The outbox as the mailer uses it: every message is written first, then marked sent. */
export function outboxStore(db: Db) {
  return {
    async add(mail: { to: string; subject: string; text: string }): Promise<number> {
      const [row] = await db.insert(outbox).values(mail).returning({ id: outbox.id });
      return row!.id;
    },
    async markSent(id: number, at: Date) {
      await db.update(outbox).set({ sentAt: at }).where(eq(outbox.id, id));
    },
  };
}

/** The newest messages, for the demo's /dev/mailbox. */
export function latestMail(db: Db, limit: number) {
  return db.select().from(outbox).orderBy(desc(outbox.id)).limit(limit);
}
