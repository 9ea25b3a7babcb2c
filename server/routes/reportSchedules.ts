import { Hono, type Context } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { findReport } from "../data/reportBuilder.ts";
import { membersOf } from "../data/reportDeliveries.ts";
import { findSchedule, schedulesOf, subscriptionMembers } from "../data/reportSchedules.ts";
import {
  addScheduleRecorded,
  changeScheduleRecorded,
  deleteScheduleRecorded,
} from "../flows/reportRecords.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { authOf, inSubscription } from "../http/auth.ts";
import { idParam, inputOf } from "../http/input.ts";
import { reply } from "../http/reply.ts";
import {
  createSchedule,
  deleteSchedule,
  listSchedules,
  MAX_SCHEDULES,
  NOT_MEMBERS,
  SCHEDULE_LIMIT,
  updateSchedule,
  type ScheduleInput,
} from "../../src/api/reportSchedules.ts";

/**
 * A report's mail schedules in the report builder. Another subscription's report or schedule
 * answers like a missing one (404); another subscription's user id is a 400 that names no one.
 */
export function reportScheduleRoutes(deps: Deps) {
  const { db } = deps;
  const ownReport = async (c: Context) => {
    const auth = authOf(c);
    const report = await findReport(db, idParam(c));
    if (!report) throw new ApiError(404, NOT_FOUND);
    inSubscription(auth, report);
    return { auth, report };
  };
  const ownSchedule = async (c: Context) => {
    const auth = authOf(c);
    const schedule = await findSchedule(db, idParam(c));
    if (!schedule) throw new ApiError(404, NOT_FOUND);
    inSubscription(auth, schedule);
    return { auth, schedule };
  };
  const membersOnly = async (subscriptionId: number, input: ScheduleInput) => {
    const found = await membersOf(db, subscriptionId, input.userIds);
    if (found.length !== new Set(input.userIds).size)
      throw new ApiError(400, [{ field: "userIds", message: NOT_MEMBERS }]);
  };
  const one = async (id: number) => {
    const [found] = await schedulesOf(db, { id });
    if (!found) throw new ApiError(404, NOT_FOUND);
    return found;
  };
  return new Hono()
    .get(listSchedules.path, guard(listSchedules, deps), async (c) => {
      const { auth, report } = await ownReport(c);
      return reply(c, listSchedules, {
        schedules: await schedulesOf(db, { reportId: report.id }),
        members: await subscriptionMembers(db, auth.subscription.id),
      });
    })
    .post(createSchedule.path, guard(createSchedule, deps), async (c) => {
      const { auth, report } = await ownReport(c);
      const input = await inputOf(c, createSchedule);
      await membersOnly(auth.subscription.id, input);
      const id = await addScheduleRecorded(deps, auth, report, input, MAX_SCHEDULES);
      if (id === null) throw new ApiError(400, [{ field: null, message: SCHEDULE_LIMIT }]);
      return reply(c, createSchedule, await one(id));
    })
    .patch(updateSchedule.path, guard(updateSchedule, deps), async (c) => {
      const { auth, schedule } = await ownSchedule(c);
      const input = await inputOf(c, updateSchedule);
      await membersOnly(auth.subscription.id, input);
      await changeScheduleRecorded(deps, auth, schedule.id, input);
      return reply(c, updateSchedule, await one(schedule.id));
    })
    .delete(deleteSchedule.path, guard(deleteSchedule, deps), async (c) => {
      const { auth, schedule } = await ownSchedule(c);
      await deleteScheduleRecorded(deps, auth, schedule.id);
      return reply(c, deleteSchedule, { id: schedule.id });
    });
}
