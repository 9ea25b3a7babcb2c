// A change and its audit row in one transaction (docs/decisions.md, "Audit trail"): the row
// commits with the change or not at all, so no change goes unrecorded, even under kill -9.
import { inTransaction, type Db } from "../db/client.ts";
import { appendAudit, type Actor, type AuditEntry } from "../data/audit.ts";
import type { Auth } from "../data/auth.ts";
import type { User } from "../data/users.ts";
import { EntityType } from "../../src/domain/enums.ts";

/** What recording needs of the server's dependencies. */
export interface AuditDeps {
  db: Db;
  now: () => Date;
  config: { auditKey?: string | undefined };
}

/** The signed-in person as the trail names them: their id and the address they had then. */
export const userActor = (auth: Pick<Auth, "user">): Actor => ({
  kind: "user",
  id: auth.user.id,
  label: auth.user.email,
});

/** A signed-in person's change in their active subscription: who, and whose chain. */
export const byUser = (auth: Pick<Auth, "user" | "subscription">) => ({
  subscriptionId: auth.subscription.id,
  actor: userActor(auth),
});

/**
 * Runs `change` and appends its row in the same transaction (a savepoint inside a caller's).
 * `entry` may be made from the change's result (the new values, an id made by the change), or
 * be null when the result says nothing changed (a link already used).
 */
export function audited<T>(
  deps: AuditDeps,
  change: (tx: Db) => Promise<T>,
  entry: AuditEntry | ((result: T) => AuditEntry | null),
): Promise<T> {
  return inTransaction(deps.db, async (tx) => {
    const result = await change(tx);
    const made = typeof entry === "function" ? entry(result) : entry;
    if (made) await appendAudit(tx, made, deps.now(), deps.config.auditKey);
    return result;
  });
}

/** Records what changes nothing else (a sign-in, an export): its row alone. */
export function record(deps: AuditDeps, entry: AuditEntry): Promise<unknown> {
  return inTransaction(deps.db, (tx) =>
    appendAudit(tx, { ...entry, always: true }, deps.now(), deps.config.auditKey),
  );
}

/**
 * A sign-in event of a person (or of an address nobody has): in the chain of the person's
 * active subscription, else in chain 0. Failed attempts are recorded too, which an audit of
 * access asks for; the password never is.
 */
export function signInEvent(
  deps: AuditDeps,
  action: string,
  who: { user: Pick<User, "id" | "email" | "activeSubscriptionId"> | null; typed?: string },
) {
  return record(deps, signInEntry(action, who));
}

/** A sign-in that starts a session: the session and its row commit together. */
export function signedIn<T>(
  deps: AuditDeps,
  user: Pick<User, "id" | "email" | "activeSubscriptionId">,
  start: (tx: Db) => Promise<T>,
) {
  return audited(deps, start, (started) => ({
    ...signInEntry(started ? "session.signin" : "session.signin.refused", { user }),
    always: true,
  }));
}

function signInEntry(
  action: string,
  who: { user: Pick<User, "id" | "email" | "activeSubscriptionId"> | null; typed?: string },
): AuditEntry {
  const { user } = who;
  return {
    subscriptionId: user?.activeSubscriptionId ?? null,
    actor: user
      ? { kind: "user", id: user.id, label: user.email }
      : { kind: "visitor", label: (who.typed ?? "").slice(0, 254) },
    action,
    entityType: user ? EntityType.USER : null,
    entityId: user?.id ?? null,
  };
}
