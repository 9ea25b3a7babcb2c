import { and, eq, sql } from "drizzle-orm";
import { rows, type Db } from "../db/client.ts";
import { chartComments, channels, reports } from "../db/schema/index.ts";

/*
 * What a chart marks besides its lines (issue 36): the alarms that touch its channels, with
 * their triggered, acknowledged (note and person) and cleared times, and the comments pinned
 * to its channels. Always within one subscription: a device that moved to another keeps its
 * old alarms and comments out of the new owner's charts, and the reverse.
 */

/** Which channels and devices a chart shows, whose subscription, over which window (epoch seconds). */
export interface MarkScope {
  subscriptionId: number;
  channelIds: readonly number[];
  /** Their devices: the device alarms (silent, battery, stale sensor) of these show too. */
  deviceIds: readonly number[];
  start: number;
  end: number;
}

export interface AlarmRow {
  id: number;
  channel_key: string | null;
  device: string;
  rule: string;
  kind: string;
  triggered_at: number;
  acknowledged_at: number | null;
  acknowledged_by: string | null;
  note: string | null;
  cleared_at: number | null;
  value: number | null;
  limit: number | null;
}

/** At most this many alarms a chart reads (the chart draws the latest of their marks). */
const MAX_ALARMS = 200;

const idList = (ids: readonly number[]) =>
  ids.length
    ? sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )
    : sql`null`;
const at = (seconds: number) => new Date(seconds * 1000);
const epochOf = (column: string) => sql.raw(`floor(extract(epoch from ${column}))::int8`);

/**
 * The alarms of the scope's channels, and the device alarms of its devices, that were raised
 * (not merely pending) and overlap the window, oldest first, with the acknowledgement's note.
 */
export async function alarmsInScope(db: Db, scope: MarkScope): Promise<AlarmRow[]> {
  const found = await rows<AlarmRow>(
    db,
    sql`select a.id, c.channel_key, d.name as device, a.rule_name as rule, a.kind,
          ${epochOf("a.triggered_at")} as triggered_at, ${epochOf("a.acknowledged_at")} as acknowledged_at,
          a.acknowledged_by, ack.note, ${epochOf("a.cleared_at")} as cleared_at, a.value, a.limit_value as "limit"
        from alarms a
        join devices d on d.id = a.device_id
        left join channels c on c.id = a.channel_id
        left join lateral (
          select e.note from alarm_events e where e.alarm_id = a.id and e.kind = 'acknowledged'
          order by e.id desc limit 1
        ) ack on true
        where a.subscription_id = ${scope.subscriptionId}
          and a.triggered_at is not null
          and a.triggered_at <= ${at(scope.end)}
          and (a.cleared_at is null or a.cleared_at >= ${at(scope.start)})
          and (a.channel_id in (${idList(scope.channelIds)})
            or (a.channel_id is null and a.device_id in (${idList(scope.deviceIds)})))
        order by a.triggered_at desc, a.id desc
        limit ${MAX_ALARMS}`,
  );
  // Numbers whatever the driver makes of int8.
  const n = (v: unknown) => (v === null ? null : Number(v));
  return found.toReversed().map((r) => ({
    ...r,
    triggered_at: Number(r.triggered_at),
    acknowledged_at: n(r.acknowledged_at),
    cleared_at: n(r.cleared_at),
  }));
}

export interface CommentRow {
  id: number;
  channelKey: string;
  at: Date;
  text: string;
  authorName: string;
}

const commentColumns = {
  id: chartComments.id,
  channelKey: channels.channelKey,
  at: chartComments.at,
  text: chartComments.text,
  authorName: chartComments.authorName,
};

/** The comments pinned to the scope's channels inside the window, in time order. */
export async function commentsInScope(db: Db, scope: MarkScope): Promise<CommentRow[]> {
  if (!scope.channelIds.length) return [];
  return db
    .select(commentColumns)
    .from(chartComments)
    .innerJoin(channels, eq(channels.id, chartComments.channelId))
    .where(
      sql`${chartComments.subscriptionId} = ${scope.subscriptionId}
        and ${chartComments.channelId} in (${idList(scope.channelIds)})
        and ${chartComments.at} between ${at(scope.start)} and ${at(scope.end)}`,
    )
    .orderBy(chartComments.at, chartComments.id)
    .limit(MAX_ALARMS);
}

/** Pins a comment to a channel; the stored row. */
export async function insertComment(
  db: Db,
  values: {
    subscriptionId: number;
    channelId: number;
    at: number;
    text: string;
    authorId: number;
    authorName: string;
  },
): Promise<CommentRow> {
  const [row] = await db
    .insert(chartComments)
    .values({ ...values, at: at(values.at) })
    .returning({ id: chartComments.id });
  const [made] = await db
    .select(commentColumns)
    .from(chartComments)
    .innerJoin(channels, eq(channels.id, chartComments.channelId))
    .where(eq(chartComments.id, row!.id));
  return made!;
}

/** Deletes a comment of the subscription; what it was (for the audit trail), or null when there was none. */
export async function deleteComment(db: Db, subscriptionId: number, id: number): Promise<CommentRow | null> {
  const [row] = await db
    .select(commentColumns)
    .from(chartComments)
    .innerJoin(channels, eq(channels.id, chartComments.channelId))
    .where(and(eq(chartComments.id, id), eq(chartComments.subscriptionId, subscriptionId)));
  const gone = await db
    .delete(chartComments)
    .where(and(eq(chartComments.id, id), eq(chartComments.subscriptionId, subscriptionId)))
    .returning({ id: chartComments.id });
  return row && gone.length ? row : null;
}

/** The devices of these channels that belong to the subscription. */
export async function devicesOfChannels(db: Db, subscriptionId: number, channelIds: readonly number[]) {
  if (!channelIds.length) return [];
  const found = await rows<{ id: number }>(
    db,
    sql`select distinct d.id from channels c
          join channel_groups g on g.id = c.channel_group_id
          join sensors s on s.id = g.sensor_id
          join devices d on d.id = s.device_id
        where c.id in (${idList(channelIds)}) and d.subscription_id = ${subscriptionId}`,
  );
  return found.map((r) => Number(r.id));
}

/** Whether the report shows alarm notes and names publicly; null when it is not the subscription's. */
export async function alarmNotesShown(
  db: Db,
  subscriptionId: number,
  reportId: number,
): Promise<boolean | null> {
  const [row] = await db
    .select({ show: reports.showAlarmNotes })
    .from(reports)
    .where(and(eq(reports.id, reportId), eq(reports.subscriptionId, subscriptionId)));
  return row ? row.show : null;
}

/** Sets it; null when the report is not the subscription's. */
export async function showAlarmNotes(
  db: Db,
  subscriptionId: number,
  reportId: number,
  show: boolean,
): Promise<boolean | null> {
  const [row] = await db
    .update(reports)
    .set({ showAlarmNotes: show })
    .where(and(eq(reports.id, reportId), eq(reports.subscriptionId, subscriptionId)))
    .returning({ show: reports.showAlarmNotes });
  return row ? row.show : null;
}
