import type { Context } from "hono";
import { authOfSession } from "../data/auth.ts";
import type { Db } from "../db/client.ts";
import { sessionToken } from "./cookies.ts";

/**
 * Who opens a public record: `memberPath`, the signed-in page, for a caller whose active
 * subscription owns it (spec section 4: such a visitor is sent there); `signedInElsewhere`
 * for a caller signed in to another subscription (the page tells them to ask their
 * administrator for access, docs/decisions.md). A public route never answers 401: no session
 * or an expired one reads as neither.
 */
export async function viewerOf(
  c: Context,
  deps: { db: Db; now: () => Date },
  record: { subscriptionId: number | null },
  path: string,
): Promise<{ memberPath: string | null; signedInElsewhere?: true }> {
  const token = sessionToken(c);
  const auth = token ? await authOfSession(deps.db, token, deps.now()) : null;
  if (!auth) return { memberPath: null };
  if (record.subscriptionId !== null && auth.subscription.id === record.subscriptionId)
    return { memberPath: path };
  return { memberPath: null, signedInElsewhere: true };
}
