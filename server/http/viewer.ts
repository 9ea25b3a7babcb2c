import type { Context } from "hono";
import { authOfSession } from "../data/auth.ts";
import type { Db } from "../db/client.ts";
import { sessionToken } from "./cookies.ts";

/**
 * The signed-in page of a public record for a caller whose active subscription owns it
 * (spec section 4: such a visitor is sent there), else null. A public route never answers
 * 401: no session, an expired one or another subscription's all read as null.
 */
export async function memberPath(
  c: Context,
  deps: { db: Db; now: () => Date },
  record: { subscriptionId: number | null },
  path: string,
): Promise<string | null> {
  const token = sessionToken(c);
  if (!token || record.subscriptionId === null) return null;
  const auth = await authOfSession(deps.db, token, deps.now());
  return auth?.subscription.id === record.subscriptionId ? path : null;
}
