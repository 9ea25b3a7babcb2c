// Alarm messages to the visitors subscribed to public reports (issue 36). Queued in the alarm
// move's own transaction (one row per event and subscriber, unique), delivered by a step of the
// alert tick that claims subscribers FOR UPDATE SKIP LOCKED: at most one message per report and
// address per 10 minutes, what arrives inside the window going out as one digest at its end.
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { inTransaction, rows, type Db } from "../db/client.ts";
import { alarmEvents, devices, reports, visitorNotices } from "../db/schema/index.ts";
import { alarmView } from "../data/alarms.ts";
import { outboxStore } from "../data/outbox.ts";
import { forgetUnconfirmed, issueLink } from "../data/visitors.ts";
import type { Mail, Mailer } from "../services/mail.ts";
import { noticeMail, type VisitorEvent } from "../services/visitorMail.ts";
import { isVisitorMove, VISITOR_WINDOW_MS } from "../../src/domain/visitorNotices.ts";

/** How long a message's unsubscribe link works. */
export const UNSUBSCRIBE_LINK_MS = 365 * 86_400_000;
/** The outbox keeps a message's link this long (without SMTP, for /dev/mailbox). */
const KEEP_LINK_MS = 30 * 86_400_000;
const BATCH = 50;
/** About once per this many ticks, unconfirmed subscribers whose link expired are forgotten. */
const SWEEP_EVERY = 30;

/**
 * Queues the move's message for every confirmed subscriber of every report that shows the
 * alarm's channel (or, for a device or sensor alarm, a channel of its device), whose public link
 * is open and whose owner lets visitors subscribe. A device in maintenance tells nobody.
 */
export async function queueVisitorNotices(
  tx: Db,
  alarm: { deviceId: number; channelId: number | null },
  move: string,
  eventId: number,
  now: Date,
) {
  if (!isVisitorMove(move)) return;
  const [device] = await tx
    .select({ mutedUntil: devices.alertsMutedUntil })
    .from(devices)
    .where(eq(devices.id, alarm.deviceId));
  if (device?.mutedUntil && device.mutedUntil > now) return;
  const shows =
    alarm.channelId !== null
      ? sql`rc.channel_id = ${alarm.channelId}`
      : sql`sn.device_id = ${alarm.deviceId}`;
  await tx.execute(sql`
    insert into visitor_notices (subscriber_id, event_id, created_at)
    select s.id, ${eventId}, ${now} from visitor_subscribers s
      join reports r on r.id = s.report_id
    where s.state = 'confirmed' and r.visitors_may_subscribe and r.public_hash is not null
      and r.paused_at is null and (r.expires_at is null or r.expires_at > ${now})
      and exists (select 1 from report_channels rc
                    join channels c on c.id = rc.channel_id
                    join channel_groups g on g.id = c.channel_group_id
                    join sensors sn on sn.id = g.sensor_id
                  where rc.report_id = r.id and ${shows})
    on conflict (event_id, subscriber_id) do nothing`);
}

export interface VisitorDeliveryDeps {
  db: Db;
  mailer: Mailer;
  /** Where links in messages point (http/links.ts pageLinkOrigin). */
  origin: string;
}

interface Due {
  id: number;
  email: string;
  report_id: number;
}

/**
 * Sends what is queued for subscribers whose window allows: each claimed subscriber gets one
 * message (a digest of several moves when several waited), written to the mail outbox in the
 * transaction that marks the notices sent, so it is stored exactly once whichever instance runs
 * it; SMTP then sends the stored message. Returns how many messages were written.
 */
export async function deliverVisitorNotices(deps: VisitorDeliveryDeps, now: Date): Promise<number> {
  if (Math.floor(Math.random() * SWEEP_EVERY) === 0) await forgetUnconfirmed(deps.db, now);
  const stored: { id: number; mail: Mail }[] = [];
  await inTransaction(deps.db, async (tx) => {
    const windowStart = new Date(now.getTime() - VISITOR_WINDOW_MS);
    const due = await rows<Due>(
      tx,
      sql`select s.id, s.email, s.report_id from visitor_subscribers s
          where s.state = 'confirmed' and (s.last_sent_at is null or s.last_sent_at <= ${windowStart})
            and exists (select 1 from visitor_notices n where n.subscriber_id = s.id and n.sent_at is null)
          order by s.id limit ${BATCH}
          for update of s skip locked`,
    );
    for (const subscriber of due) {
      const mail = await messageFor(tx, subscriber, deps.origin, now);
      if (mail) stored.push({ id: await outboxStore(tx).add(mail, now), mail });
    }
  });
  // After commit: a message in the outbox is the delivery; SMTP, when configured, sends it.
  for (const s of stored) await deps.mailer.transmit?.(s.id, s.mail);
  return stored.length;
}

/** The subscriber's queued moves as one message, marked sent; none when the report stopped sharing. */
async function messageFor(tx: Db, subscriber: Due, origin: string, now: Date): Promise<Mail | null> {
  const queued = await tx
    .select({ id: visitorNotices.id, eventId: visitorNotices.eventId })
    .from(visitorNotices)
    .innerJoin(alarmEvents, eq(alarmEvents.id, visitorNotices.eventId))
    .where(and(eq(visitorNotices.subscriberId, subscriber.id), isNull(visitorNotices.sentAt)))
    .orderBy(asc(alarmEvents.at), asc(alarmEvents.id));
  if (!queued.length) return null;
  await tx
    .update(visitorNotices)
    .set({ sentAt: now })
    .where(
      inArray(
        visitorNotices.id,
        queued.map((q) => q.id),
      ),
    );
  const [report] = await tx.select().from(reports).where(eq(reports.id, subscriber.report_id));
  // Turned off, paused or unshared since the moves were queued: they are dropped, not sent.
  const open =
    report?.publicHash &&
    report.visitorsMaySubscribe &&
    !report.pausedAt &&
    (!report.expiresAt || report.expiresAt > now);
  if (!report || !open) return null;
  const events: VisitorEvent[] = [];
  for (const q of queued) {
    const [event] = await tx.select().from(alarmEvents).where(eq(alarmEvents.id, q.eventId));
    const alarm = event ? await alarmView(tx, event.alarmId) : undefined;
    if (event && alarm)
      events.push({
        kind: event.kind,
        at: event.at,
        deviceName: alarm.deviceName,
        channelName: alarm.channelName,
      });
  }
  if (!events.length) return null;
  await tx.execute(sql`update visitor_subscribers set last_sent_at = ${now} where id = ${subscriber.id}`);
  const token = await issueLink(
    tx,
    subscriber.id,
    "unsubscribe",
    new Date(now.getTime() + UNSUBSCRIBE_LINK_MS),
  );
  const mail = noticeMail({
    to: subscriber.email,
    reportName: report.name,
    events,
    links: { origin, publicHash: report.publicHash! },
    unsubscribeToken: token,
  });
  return { ...mail, secretUntil: new Date(now.getTime() + KEEP_LINK_MS) };
}
