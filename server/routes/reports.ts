import { Hono, type Context } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { channelOptions, findReport, reportDetail, reportSummaries } from "../data/reportBuilder.ts";
import { changeReportLink, shareReport, unshareReport } from "../data/reportLinks.ts";
import type { Deps } from "../deps.ts";
import {
  changeLinkRecorded,
  createReportRecorded,
  deleteReportRecorded,
  updateReportRecorded,
} from "../flows/reportEdits.ts";
import { guard } from "../http/access.ts";
import { authOf, inSubscription } from "../http/auth.ts";
import { idParam, inputOf } from "../http/input.ts";
import { reply } from "../http/reply.ts";
import {
  createReport,
  createReportLink,
  deleteReport,
  deleteReportLink,
  getReport,
  listReportChannels,
  listReports,
  updateReport,
  updateReportLink,
} from "../../src/api/reportBuilder.ts";

const dateOf = (epoch: number | null) => (epoch === null ? null : new Date(epoch * 1000));

/**
 * The report builder of the signed-in app: reports of the active subscription and their
 * public links. Another subscription's report answers exactly like a missing one (404), and
 * only report.edit (Administrator, Manager) changes anything.
 */
export function reportRoutes(deps: Deps) {
  const { db } = deps;
  /** The path's report in the caller's subscription (the role is the route's guard's). */
  const ownReport = async (c: Context) => {
    const auth = authOf(c);
    const report = await findReport(db, idParam(c));
    if (!report) throw new ApiError(404, NOT_FOUND);
    inSubscription(auth, report);
    return { auth, report };
  };
  const detail = async (subscriptionId: number, id: number) => {
    const found = await reportDetail(db, subscriptionId, id, deps.now());
    if (!found) throw new ApiError(404, NOT_FOUND);
    return found;
  };
  // The views counted in memory are written first, so the list shows every view so far.
  const summaries = async (subscriptionId: number, id?: number) => {
    await deps.views.flush();
    return reportSummaries(db, subscriptionId, deps.now(), id);
  };
  const summary = async (subscriptionId: number, id: number) => {
    const [found] = await summaries(subscriptionId, id);
    if (!found) throw new ApiError(404, NOT_FOUND);
    return found;
  };
  return new Hono()
    .get(listReports.path, guard(listReports, deps), async (c) =>
      reply(c, listReports, await summaries(authOf(c).subscription.id)),
    )
    .get(listReportChannels.path, guard(listReportChannels, deps), async (c) =>
      reply(c, listReportChannels, await channelOptions(db, authOf(c).subscription.id)),
    )
    .get(getReport.path, guard(getReport, deps), async (c) => {
      const { auth, report } = await ownReport(c);
      return reply(c, getReport, await detail(auth.subscription.id, report.id));
    })
    .post(createReport.path, guard(createReport, deps), async (c) => {
      const input = await inputOf(c, createReport);
      const auth = authOf(c);
      const id = await createReportRecorded(deps, auth, input);
      return reply(c, createReport, await detail(auth.subscription.id, id));
    })
    .patch(updateReport.path, guard(updateReport, deps), async (c) => {
      const { auth, report } = await ownReport(c);
      const input = await inputOf(c, updateReport);
      if (!(await updateReportRecorded(deps, auth, report.id, input))) throw new ApiError(404, NOT_FOUND);
      return reply(c, updateReport, await detail(auth.subscription.id, report.id));
    })
    .delete(deleteReport.path, guard(deleteReport, deps), async (c) => {
      const { auth, report } = await ownReport(c);
      if (!(await deleteReportRecorded(deps, auth, report.id))) throw new ApiError(404, NOT_FOUND);
      return reply(c, deleteReport, { id: report.id });
    })
    .post(createReportLink.path, guard(createReportLink, deps), async (c) => {
      const { auth, report } = await ownReport(c);
      const { expiresAt } = await inputOf(c, createReportLink);
      await changeLinkRecorded(
        deps,
        auth,
        report.id,
        (before) => (before.publicHash ? "report.link.replace" : "report.link.create"),
        (tx) => shareReport(tx, report.id, dateOf(expiresAt)),
      );
      return reply(c, createReportLink, await summary(auth.subscription.id, report.id));
    })
    .patch(updateReportLink.path, guard(updateReportLink, deps), async (c) => {
      const { auth, report } = await ownReport(c);
      const input = await inputOf(c, updateReportLink);
      if (!report.publicHash) throw new ApiError(404, "The report is not shared.");
      const change = {
        // Pausing keeps the first pause time; resuming clears it.
        pausedAt:
          input.paused === undefined ? undefined : input.paused ? (report.pausedAt ?? deps.now()) : null,
        expiresAt: input.expiresAt === undefined ? undefined : dateOf(input.expiresAt),
      };
      await changeLinkRecorded(
        deps,
        auth,
        report.id,
        () => "report.link.change",
        (tx) => changeReportLink(tx, report.id, change),
      );
      return reply(c, updateReportLink, await summary(auth.subscription.id, report.id));
    })
    .delete(deleteReportLink.path, guard(deleteReportLink, deps), async (c) => {
      const { auth, report } = await ownReport(c);
      await changeLinkRecorded(
        deps,
        auth,
        report.id,
        () => "report.link.delete",
        (tx) => unshareReport(tx, report.id),
      );
      return reply(c, deleteReportLink, await summary(auth.subscription.id, report.id));
    });
}
