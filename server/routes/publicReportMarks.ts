import { Hono } from "hono";
import { ApiError } from "../core/errors.ts";
import { reportChannelList, reportPlan } from "../data/reports.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { cachedAnswer } from "../http/answers.ts";
import { inputOf } from "../http/input.ts";
import { readsOf } from "../http/readRouting.ts";
import { sendSerialized, serialized } from "../http/reply.ts";
import { reportMarks } from "../flows/chartMarks.ts";
import { openReport, planWindow } from "../flows/reportView.ts";
import { getPublicReportMarks } from "../../src/api/chartMarks.ts";
import { requestedWindow } from "../../src/domain/reportWindow.ts";

/**
 * A shared report's alarms and comments (token access, issue 36) for its live chart: that an
 * alarm happened and was acknowledged, with notes and names only when the owner shows them.
 * Every bad link answers the same 404 first.
 */
export function publicReportMarkRoutes(deps: Deps) {
  return new Hono().get(getPublicReportMarks.path, guard(getPublicReportMarks, deps), async (c) => {
    const hash = c.req.param("hash");
    // On the replica when it may serve, as the chart's data.
    const read = readsOf(c, deps.reads);
    const report = await read((db) => openReport(db, hash, deps.now()));
    const input = await inputOf(c, getPublicReportMarks);
    const [channels, plan] = await read((db) =>
      Promise.all([reportChannelList(db, report.id), reportPlan(db, report)]),
    );
    const window = requestedWindow(planWindow(report, plan.limits, deps.now()), {
      start: input.start === undefined ? undefined : Number(input.start),
      end: input.end === undefined ? undefined : Number(input.end),
    });
    if ("error" in window) throw new ApiError(400, [{ field: "start", message: window.error }]);
    // Shared by every visitor of the same window for the microcache's moment.
    const key = `report-marks:${hash}:${window.start}:${window.end}`;
    const answer = await cachedAnswer(c, deps.answers, key, async () =>
      serialized(getPublicReportMarks, await read((db) => reportMarks(db, report, channels, window))),
    );
    return sendSerialized(c, answer);
  });
}
