// One tick of the alert scheduler: time-based moves, then the due deliveries.
import type { Db } from "../db/client.ts";
import type { Mailer } from "../services/mail.ts";
import type { PrivatePolicy } from "../services/webhooks.ts";
import { deliverDue } from "./alertDelivery.ts";
import { runAlertTick } from "./alertScheduler.ts";

export interface AlertWorkDeps {
  db: Db;
  mailer: Mailer;
  origin: string;
  webhookPrivate: PrivatePolicy;
}

/** The task core/repeatingJob.ts startAlertWork runs on every instance. */
export function alertTask(deps: AlertWorkDeps) {
  return async (now: Date) => {
    const moved = await runAlertTick(deps.db, now);
    const delivered = await deliverDue(deps, now);
    return { moved, delivered };
  };
}
