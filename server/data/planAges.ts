import { subscriptions } from "../db/schema/index.ts";
import type { Db } from "../db/client.ts";

/**
 * Every subscription's plan limits (dataAgeLimitUnit/Value among them), for retention: data
 * may go only once every plan has aged it out, whatever subscription owns its device today
 * (a device moved to a longer plan shows its older readings again).
 */
export async function everyPlanLimits(db: Db): Promise<Record<string, unknown>[]> {
  const found = await db.select({ limits: subscriptions.limits }).from(subscriptions);
  return found.map((r) => r.limits ?? {});
}
