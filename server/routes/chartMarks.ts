import { Hono } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { channelByKey } from "../data/channels.ts";
import { alarmNotesShown } from "../data/chartMarks.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { authOf, inSubscription } from "../http/auth.ts";
import { idParam, inputOf } from "../http/input.ts";
import { reply } from "../http/reply.ts";
import { marksOf } from "../flows/chartMarks.ts";
import { setAlarmNotesRecorded } from "../flows/reportEdits.ts";
import { addCommentRecorded, deleteCommentRecorded } from "../flows/reportRecords.ts";
import { epochSeconds } from "../../src/domain/brand.ts";
import { dataRange } from "../../src/domain/plan.ts";
import {
  addChartComment,
  deleteChartComment,
  getChannelMarks,
  getReportAlarmNotes,
  setReportAlarmNotes,
} from "../../src/api/chartMarks.ts";

/** "Ada Lovelace", or the address when the person has no name. */
const nameOf = (user: { firstName: string | null; lastName: string | null; email: string }) =>
  [user.firstName, user.lastName].filter(Boolean).join(" ") || user.email;

/**
 * The signed-in side of the alarm story on the charts (issue 36): a channel's alarms and
 * comments for the explore chart, pinning and deleting comments (chart.comment), and a report's
 * choice to show alarm notes and names publicly. Another subscription's channel, comment or
 * report answers like a missing one (404).
 */
export function chartMarkRoutes(deps: Deps) {
  const { db, now } = deps;
  const ownChannel = async (auth: ReturnType<typeof authOf>, key: string | undefined) => {
    const channel = await channelByKey(db, key ?? "");
    if (!channel) throw new ApiError(404, NOT_FOUND);
    inSubscription(auth, channel);
    return channel;
  };
  return new Hono()
    .get(getChannelMarks.path, guard(getChannelMarks, deps), async (c) => {
      const auth = authOf(c);
      const channel = await ownChannel(auth, c.req.param("channelKey"));
      const query = await inputOf(c, getChannelMarks);
      const num = (v: string | undefined) => (v === undefined ? null : Number(v));
      const range = dataRange(
        auth.subscription.limits,
        { start: num(query.start), end: num(query.end) },
        epochSeconds(now().getTime() / 1000),
      );
      if (!range.ok)
        throw new ApiError(range.status, [
          { field: range.status === 400 ? "start" : null, message: range.message },
        ]);
      const scope = {
        subscriptionId: auth.subscription.id,
        channelIds: [channel.channelId],
        deviceIds: [channel.deviceId],
        start: range.start,
        end: range.end,
      };
      return reply(c, getChannelMarks, await marksOf(db, scope, "full"));
    })
    .post(addChartComment.path, guard(addChartComment, deps), async (c) => {
      const auth = authOf(c);
      const input = await inputOf(c, addChartComment);
      const channel = await ownChannel(auth, input.channelKey);
      const row = await addCommentRecorded(deps, auth, channel, {
        at: input.at,
        text: input.text,
        authorName: nameOf(auth.user),
      });
      return reply(c, addChartComment, {
        id: row.id,
        channelKey: row.channelKey,
        at: Math.floor(row.at.getTime() / 1000),
        text: row.text,
        author: row.authorName,
      });
    })
    .delete(deleteChartComment.path, guard(deleteChartComment, deps), async (c) => {
      const id = idParam(c);
      if (!(await deleteCommentRecorded(deps, authOf(c), id))) throw new ApiError(404, NOT_FOUND);
      return reply(c, deleteChartComment, { id });
    })
    .get(getReportAlarmNotes.path, guard(getReportAlarmNotes, deps), async (c) => {
      const show = await alarmNotesShown(db, authOf(c).subscription.id, idParam(c));
      if (show === null) throw new ApiError(404, NOT_FOUND);
      return reply(c, getReportAlarmNotes, { show });
    })
    .patch(setReportAlarmNotes.path, guard(setReportAlarmNotes, deps), async (c) => {
      const id = idParam(c);
      const input = await inputOf(c, setReportAlarmNotes);
      const show = await setAlarmNotesRecorded(deps, authOf(c), id, input.show);
      if (show === null) throw new ApiError(404, NOT_FOUND);
      return reply(c, setReportAlarmNotes, { show });
    });
}
