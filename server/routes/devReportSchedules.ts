import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { pageLinkOrigin } from "../http/links.ts";
import { isLocalRequest, MAILBOX_LOCAL_ONLY } from "../http/local.ts";
import { reportScheduleTask } from "../flows/reportSchedules.ts";

const RUN = { method: "post", path: "/dev/report-schedules/run" } as const;

/**
 * Demo mode on this computer only (mounted only when DEMO is on, like /dev/mailbox): runs one
 * tick of the scheduled reports as if the clock read `?at=` (ISO), so a browser test can
 * schedule a report and see it arrive without waiting for the hour. Production never mounts
 * it; the real ticks keep the real clock.
 */
export function devReportScheduleRoutes(deps: Deps) {
  return new Hono().post(RUN.path, guard(RUN, deps), async (c) => {
    if (!isLocalRequest(c)) return c.text(MAILBOX_LOCAL_ONLY, 403);
    const at = new Date(c.req.query("at") ?? "");
    if (Number.isNaN(at.getTime())) return c.text("Give ?at= as an ISO time.", 400);
    await reportScheduleTask({
      db: deps.db,
      mailer: deps.mailer,
      origin: pageLinkOrigin(deps.config),
      auditKey: deps.config.auditKey,
    })(at);
    return c.text(`Ran the report schedules at ${at.toISOString()}.`);
  });
}
