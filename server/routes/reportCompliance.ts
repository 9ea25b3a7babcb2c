import { Hono } from "hono";
import { ApiError } from "../core/errors.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { cachedAnswer } from "../http/answers.ts";
import { inputOf } from "../http/input.ts";
import { readsOf } from "../http/readRouting.ts";
import { reply } from "../http/reply.ts";
import { clientIp } from "../http/clientIp.ts";
import { reportCsvPlan, windowDigest } from "../flows/reportCompliance.ts";
import { openReport, reportParts } from "../flows/reportView.ts";
import { getReportCompliance } from "../../src/api/reportCompliance.ts";
import { requestedWindow } from "../../src/domain/reportWindow.ts";

/** A shared report's compliance figures by its public hash (token access), the page's table. */
export function reportComplianceRoutes(deps: Deps) {
  return new Hono().get(getReportCompliance.path, guard(getReportCompliance, deps), async (c) => {
    const hash = c.req.param("hash");
    // The window's whole readings on the replica when it may serve: the heaviest public read.
    const reads = readsOf(c, deps.reads);
    const report = await reads((db) => openReport(db, hash, deps.now()));
    const input = await inputOf(c, getReportCompliance);
    const parts = await reads((db) => reportParts(db, report, deps.now()));
    const window = requestedWindow(parts.window, {
      start: input.start === undefined ? undefined : Number(input.start),
      end: input.end === undefined ? undefined : Number(input.end),
    });
    if ("error" in window) throw new ApiError(400, [{ field: "start", message: window.error }]);
    const read = async () => {
      const plan = reportCsvPlan(parts.channels, window, "C", "UTC");
      const energy = report.mktActivationEnergy;
      const { figures } = await deps.walks.run(clientIp(c, deps.config.trustProxy), () =>
        reads((db) => windowDigest(db, plan, parts.channels, parts.thresholds, energy)),
      );
      return {
        ...window,
        activationEnergy: energy,
        channels: parts.channels.map((ch) => {
          const f = figures.get(ch.channelId)!;
          return {
            channelId: ch.channelId,
            channelKey: ch.channelKey,
            ...f,
            ranges: f.ranges.map(({ rangeId, ...r }) => ({ thresholdRangeId: rangeId, ...r })),
            longest: f.longest && (({ rangeId, ...l }) => ({ thresholdRangeId: rangeId, ...l }))(f.longest),
          };
        }),
      };
    };
    // Only the report's own window is shared between visitors (as its chart data is).
    const own = input.start === undefined && input.end === undefined;
    const key = `report-compliance:${hash}:${window.start}:${window.end}`;
    return reply(c, getReportCompliance, await (own ? cachedAnswer(c, deps.answers, key, read) : read()));
  });
}
