import { eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { outboxAttachments } from "../db/schema/index.ts";

/** The files of the listed messages (names and sizes, not contents), for /dev/mailbox. */
export async function attachmentList(db: Db, outboxIds: readonly number[]) {
  if (!outboxIds.length) return [];
  return db
    .select({
      id: outboxAttachments.id,
      outboxId: outboxAttachments.outboxId,
      filename: outboxAttachments.filename,
    })
    .from(outboxAttachments)
    .where(inArray(outboxAttachments.outboxId, [...outboxIds]));
}

/** One stored file with its contents. */
export async function attachmentById(db: Db, id: number) {
  const [row] = await db.select().from(outboxAttachments).where(eq(outboxAttachments.id, id));
  return row ?? null;
}
