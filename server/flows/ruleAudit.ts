// An alert rule's rows in the audit trail (docs/decisions.md, "Audit trail"): who changed which
// rule, the device it watches (for that device's history), and its values as people read them:
// what it watches by name, whom it tells by address, webhooks by origin and fingerprint.
import type { Db } from "../db/client.ts";
import type { Auth } from "../data/auth.ts";
import { memberEmails, targetName } from "../data/alerts.ts";
import { EntityType } from "../../src/domain/enums.ts";
import { auditedUrl } from "./alertRules.ts";
import { byUser } from "./audited.ts";

/** A rule's row in the trail: by whom, which rule, and the device it watches (if one). */
export const ruleEntry = (auth: Auth, id: number, action: string, deviceId: number | null) => ({
  ...byUser(auth),
  action,
  entityType: EntityType.ALERT,
  entityId: id,
  deviceId,
});

/**
 * A rule's values as the trail keeps them: its target's key or id becomes `watches`, the name
 * the rules list shows ("Freezer - Cold Room - Temperature"); the people it tells by address
 * (an id nobody of the subscription has stays "#id"); webhook addresses by origin and
 * fingerprint (a path may hold a key).
 */
export async function ruleValues(db: Db, subscriptionId: number, input: object) {
  const { channelKey, deviceId, tagId, ...v } = input as Record<string, unknown>;
  const named: Record<string, unknown> = { ...v };
  if (channelKey != null || deviceId != null || tagId != null)
    named["watches"] =
      (await targetName(db, subscriptionId, { channelKey, deviceId, tagId })) ??
      String(channelKey ?? deviceId ?? tagId);
  const notify = v["notify"] as { userIds?: number[]; webhookUrls?: string[] } | undefined;
  if (notify) {
    const { userIds, webhookUrls, ...rest } = notify;
    const emails = await memberEmails(db, subscriptionId, userIds ?? []);
    named["notify"] = {
      ...rest,
      ...(userIds ? { people: userIds.map((id) => emails.get(id) ?? `#${id}`) } : {}),
      ...(webhookUrls ? { webhookUrls: webhookUrls.map(auditedUrl) } : {}),
    };
  }
  return named;
}
