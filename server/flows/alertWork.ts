// One tick of the alert scheduler: time-based moves, then the due deliveries.
import type { Db } from "../db/client.ts";
import type { Mailer } from "../services/mail.ts";
import type { PrivatePolicy } from "../services/webhooks.ts";
import { deliverEmail, deliverWebhooks } from "./alertDelivery.ts";
import { runAlertTick } from "./alertScheduler.ts";
import { deliverVisitorNotices } from "./visitorNotices.ts";

export interface AlertWorkDeps {
  db: Db;
  mailer: Mailer;
  origin: string;
  webhookPrivate: PrivatePolicy;
  /** AUDIT_KEY: the scheduler's audit rows are chained with it (flows/audited.ts). */
  auditKey?: string | undefined;
}

/**
 * The task core/repeatingJob.ts startAlertWork runs on every instance. Webhooks go out beside
 * the ticks, one batch at a time: a slow receiver (each call has a 10 s deadline) never holds
 * another subscription's mail, repeats or escalation. `wait` (tests, the bench) awaits them.
 */
export function alertTask(deps: AlertWorkDeps, opts: { wait?: boolean } = { wait: true }) {
  let posting: Promise<unknown> | null = null;
  return async (now: Date) => {
    const moved = await runAlertTick(deps.db, now, deps.auditKey);
    const mailed = await deliverEmail(deps, now);
    await deliverVisitorNotices(deps, now);
    if (!posting)
      posting = deliverWebhooks(deps, now)
        .catch((e) =>
          console.warn(JSON.stringify({ level: "warn", what: "alert webhooks", error: String(e) })),
        )
        .finally(() => (posting = null));
    if (opts.wait) await posting;
    return { moved, mailed };
  };
}
