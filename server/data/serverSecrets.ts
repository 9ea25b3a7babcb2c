import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { serverSecrets } from "../db/schema/index.ts";
import { randomToken } from "../core/crypto.ts";

/**
 * The named secret every instance on this database shares, made (256 random bits) by the
 * first instance that asks: instances started together may race, and the insert that loses
 * leaves the winner's value, which both then read.
 */
export async function sharedSecret(db: Db, name: string): Promise<string> {
  const read = async () =>
    (
      await db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, name))
    )[0]?.value;
  const found = await read();
  if (found) return found;
  await db.insert(serverSecrets).values({ name, value: randomToken() }).onConflictDoNothing();
  return (await read())!;
}
