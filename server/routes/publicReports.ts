import { Hono, type Context } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { chartData } from "../data/chartData.ts";
import {
  chartChannels,
  reportByPublicHash,
  reportChannelList,
  reportPlan,
  reportThresholdList,
  timingOf,
} from "../data/reports.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { cachedAnswer } from "../http/answers.ts";
import { inputOf } from "../http/input.ts";
import { readsOf } from "../http/readRouting.ts";
import { sendSerialized, serialized } from "../http/reply.ts";
import { getPublicReport, getPublicReportData } from "../../src/api/reports.ts";
import { packSeries } from "../../src/domain/chartPoints.ts";
import { planAllows } from "../../src/domain/plan.ts";
import { requestedWindow } from "../../src/domain/reportWindow.ts";
import { planWindow } from "../flows/reportView.ts";

/**
 * The public report page's two reads, by the report's public hash (token access): its metadata
 * (spec section 3) and its chart data. A malformed, unknown, deleted, regenerated, expired or
 * paused link answers the same 404, before any input is looked at.
 */
export function publicReportRoutes(deps: Deps) {
  const openReport = async (db: Deps["db"], hash: string | undefined) => {
    const report = await reportByPublicHash(db, hash ?? "", deps.now());
    if (!report) throw new ApiError(404, NOT_FOUND);
    return report;
  };
  return new Hono()
    .get(getPublicReport.path, guard(getPublicReport, deps), async (c) => {
      const { report, list, thresholds, plan } = await sharedReport(c, c.req.param("publicHash"));
      const input = await inputOf(c, getPublicReport);
      // A page opening is a view; its 30-second refreshes (refresh=1) are not.
      if (input.refresh !== "1") deps.views.count(report.id, deps.now());
      const timing = timingOf(report);
      const window = planWindow(report, plan.limits, deps.now());
      // Serialized once per report and window (a rolling window moves each second).
      const key = `report-answer:${c.req.param("publicHash")}:${window.start}:${window.end}`;
      const answer = await cachedAnswer(c, deps.answers, key, async () =>
        serialized(getPublicReport, {
          ...metadataOf(list, thresholds),
          reportDetails: { name: report.name, ...timing },
          window,
          csvExport: planAllows(plan.features, "csvExport"),
        }),
      );
      return sendSerialized(c, answer);
    })
    .get(getPublicReportData.path, guard(getPublicReportData, deps), async (c) => {
      const hash = c.req.param("hash");
      const { report, list, thresholds, plan } = await sharedReport(c, hash);
      const input = await inputOf(c, getPublicReportData);
      const window = requestedWindow(planWindow(report, plan.limits, deps.now()), {
        start: input.start === undefined ? undefined : Number(input.start),
        end: input.end === undefined ? undefined : Number(input.end),
      });
      if ("error" in window) throw new ApiError(400, [{ field: "start", message: window.error }]);
      // Only the page's own window is shared; a visitor's zoom (start/end) is theirs, and
      // caching every window asked for would let one link fill the cache.
      const read = async () =>
        serialized(getPublicReportData, {
          ...window,
          series: (
            await readsOf(c, deps.reads)((db) => chartData(db, chartChannels(list, thresholds), window))
          ).map(packSeries),
        });
      const own = input.start === undefined && input.end === undefined;
      const key = `report-data:${hash}:${window.start}:${window.end}`;
      return sendSerialized(c, await (own ? cachedAnswer(c, deps.answers, key, read) : read()));
    });

  /**
   * A shared report with its channels and thresholds: the same for every visitor, so cached;
   * read on the replica when it may serve.
   */
  function sharedReport(c: Context, hash: string | undefined) {
    return cachedAnswer(c, deps.answers, `report:${hash}`, () =>
      readsOf(
        c,
        deps.reads,
      )(async (db) => {
        const report = await openReport(db, hash);
        const [list, thresholds, plan] = await Promise.all([
          reportChannelList(db, report.id),
          reportThresholdList(db, report.id),
          reportPlan(db, report),
        ]);
        return { report, list, thresholds, plan };
      }),
    );
  }
}

/** The report's channels, devices and thresholds as its page shows them (spec section 3). */
function metadataOf(
  list: Awaited<ReturnType<typeof reportChannelList>>,
  thresholds: Awaited<ReturnType<typeof reportThresholdList>>,
) {
  const devices = new Map(list.map((ch) => [ch.macAddress, ch.deviceName]));
  return {
    sensorMap: Object.fromEntries(
      list.map((ch) => [
        ch.channelKey,
        {
          name: ch.name,
          sensorName: ch.sensorName,
          channelName: ch.channelName,
          kind: ch.kind,
          units: ch.units,
          value: ch.latest,
          lastReceived: ch.lastReceived,
          macAddress: ch.macAddress,
        },
      ]),
    ),
    deviceList: [...devices].map(([macAddress, deviceName]) => ({ deviceName, macAddress })),
    channelKeyList: list.map((ch) => ({
      channelKey: ch.channelKey,
      channelId: ch.channelId,
      macAddress: ch.macAddress,
      color: ch.color,
      axis: ch.axis,
    })),
    channelIdList: list.map((ch) => ch.channelId),
    thresholdRangeAssociations: thresholds.map((t) => ({
      thresholdRange: {
        id: t.id,
        name: t.name,
        channelKey: t.channelKey,
        minValue: t.minValue,
        maxValue: t.maxValue,
        color: t.color,
      },
    })),
  };
}
