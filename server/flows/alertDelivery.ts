// Delivers the alert outbox (alert_deliveries). Email: claimed with FOR UPDATE SKIP LOCKED and
// written to the mail outbox in the same transaction that marks it sent, so each message is
// stored exactly once whatever instance dies when; SMTP then sends the stored message.
// Webhooks: claimed with a lease, posted signed, retried with backoff; each attempt is logged.
import { and, eq, inArray, lte, or, isNull, sql } from "drizzle-orm";
import { inTransaction, rows, type Db } from "../db/client.ts";
import {
  alarmAckTokens,
  alarmEvents,
  alertAttempts,
  alertDeliveries,
  alertRules,
  users,
} from "../db/schema/index.ts";
import { webhookSecretOf } from "../data/alerts.ts";
import { alarmView, type AlarmView } from "../data/alarms.ts";
import { outboxStore } from "../data/outbox.ts";
import { randomToken, sha256 } from "../core/crypto.ts";
import type { Mail, Mailer } from "../services/mail.ts";
import {
  EVENT_ID_HEADER,
  postWebhook,
  SIGNATURE_HEADER,
  signBody,
  type PrivatePolicy,
} from "../services/webhooks.ts";
import { alarmMail, digestMail, type MailReader } from "../services/alertMail.ts";
import { RETRY_FOR_MS, retryDelayMs } from "../../src/domain/alerts.ts";
import { isTemperatureKind } from "../../src/domain/device.ts";

export interface DeliveryDeps {
  db: Db;
  mailer: Mailer;
  /** Where links in messages point (http/links.ts). */
  origin: string;
  webhookPrivate: PrivatePolicy;
}

const BATCH = 100;
/** Individual messages a recipient gets per minute; beyond that the rest go as one digest. */
export const DIGEST_AFTER = 3;
const DIGEST_WINDOW_MS = 60_000;
/** How long an emailed acknowledge link works (while the alarm is open). */
const ACK_LINK_MS = 7 * 86_400_000;
const LEASE_MS = 60_000;

type DeliveryRow = typeof alertDeliveries.$inferSelect;

/** Stores the due alert mail in the outbox, exactly once, then hands it to SMTP. */
export async function deliverEmail(deps: DeliveryDeps, now: Date): Promise<number> {
  const stored: { id: number; mail: Mail }[] = [];
  const settled = await inTransaction(deps.db, async (tx) => {
    const due = await tx
      .select()
      .from(alertDeliveries)
      .where(
        and(
          eq(alertDeliveries.state, "queued"),
          eq(alertDeliveries.channel, "email"),
          lte(alertDeliveries.nextAttemptAt, now),
        ),
      )
      .orderBy(alertDeliveries.id)
      .limit(BATCH)
      .for("update", { skipLocked: true });
    if (!due.length) return 0;
    const byRecipient = new Map<string, DeliveryRow[]>();
    for (const d of due) byRecipient.set(d.recipient, [...(byRecipient.get(d.recipient) ?? []), d]);
    const outbox = outboxStore(tx);
    const reader = mailReader(tx);
    for (const [recipient, group] of byRecipient) {
      const recent = await sentRecently(tx, recipient, now);
      if (recent >= DIGEST_AFTER) {
        // A storm: held for the minute, then sent together as one digest.
        await tx
          .update(alertDeliveries)
          .set({ nextAttemptAt: new Date(now.getTime() + DIGEST_WINDOW_MS) })
          .where(
            inArray(
              alertDeliveries.id,
              group.map((d) => d.id),
            ),
          );
        continue;
      }
      const digest = group.length > 1 && recent + group.length > DIGEST_AFTER;
      const parts = await Promise.all(group.map((d) => partOf(tx, reader, d, deps.origin, now)));
      const mails = digest ? [digestMail(recipient, parts)] : parts.map((p) => p.mail);
      for (const mail of mails) stored.push({ id: await outbox.add(mail, now), mail });
      await tx
        .update(alertDeliveries)
        .set({ state: "sent", sentAt: now, attempts: sql`${alertDeliveries.attempts} + 1` })
        .where(
          inArray(
            alertDeliveries.id,
            group.map((d) => d.id),
          ),
        );
      await tx.insert(alertAttempts).values(
        group.map((d) => ({
          deliveryId: d.id,
          at: now,
          ok: true,
          detail: digest ? `in a digest of ${group.length}` : "mailed",
        })),
      );
    }
    return due.length;
  });
  // After commit: a message in the outbox is the delivery; SMTP, when configured, sends it.
  for (const s of stored) await deps.mailer.transmit?.(s.id, s.mail);
  return settled;
}

async function sentRecently(tx: Db, recipient: string, now: Date): Promise<number> {
  const [row] = await rows<{ n: number }>(
    tx,
    sql`select count(distinct sent_at)::int as n from alert_deliveries
        where channel = 'email' and recipient = ${recipient} and state = 'sent'
          and sent_at > ${new Date(now.getTime() - DIGEST_WINDOW_MS)}`,
  );
  return row?.n ?? 0;
}

/** What a message needs to know of its alarm, event, rule and reader. */
function mailReader(tx: Db): MailReader {
  const prefs = new Map<number, { scale: "C" | "F"; timeZone: string }>();
  return {
    async reader(userId) {
      if (!userId) return null;
      if (!prefs.has(userId)) {
        const [u] = await tx
          .select({ scale: users.temperatureScale, timeZone: users.timezone })
          .from(users)
          .where(eq(users.id, userId));
        if (u) prefs.set(userId, u);
      }
      return prefs.get(userId) ?? null;
    },
  };
}

async function partOf(tx: Db, reader: MailReader, d: DeliveryRow, origin: string, now: Date) {
  const alarm = (await alarmView(tx, d.alarmId))!;
  const [event] = await tx.select().from(alarmEvents).where(eq(alarmEvents.id, d.eventId));
  const [rule] = alarm.ruleId
    ? await tx.select().from(alertRules).where(eq(alertRules.id, alarm.ruleId))
    : [undefined];
  const owner = rule?.createdBy ? await reader.reader(rule.createdBy) : null;
  const prefs = (await reader.reader(d.userId)) ??
    owner ?? { scale: (rule?.scale as "C" | "F") ?? "F", timeZone: "UTC" };
  let ackToken: string | null = null;
  if (event!.kind !== "cleared" && event!.kind !== "acknowledged" && alarm.state === "triggered") {
    ackToken = randomToken();
    const expiresAt = new Date(now.getTime() + ACK_LINK_MS);
    await tx
      .insert(alarmAckTokens)
      .values({ tokenHash: sha256(ackToken), alarmId: alarm.id, recipient: d.recipient, expiresAt });
  }
  const mail = alarmMail({ to: d.recipient, alarm, event: event!, prefs, origin, ackToken, now });
  return { mail, alarm, event: event!, prefs };
}

/** Claims due webhooks with a lease (another instance leaves them until it ends), then posts them. */
export async function deliverWebhooks(deps: DeliveryDeps, now: Date): Promise<number> {
  const claimed = await inTransaction(deps.db, async (tx) => {
    const due = await tx
      .select({ id: alertDeliveries.id })
      .from(alertDeliveries)
      .where(
        and(
          eq(alertDeliveries.state, "queued"),
          eq(alertDeliveries.channel, "webhook"),
          lte(alertDeliveries.nextAttemptAt, now),
          or(isNull(alertDeliveries.leaseUntil), lte(alertDeliveries.leaseUntil, now)),
        ),
      )
      .orderBy(alertDeliveries.id)
      .limit(20)
      .for("update", { skipLocked: true });
    if (!due.length) return [];
    return tx
      .update(alertDeliveries)
      .set({ leaseUntil: new Date(now.getTime() + LEASE_MS), attempts: sql`${alertDeliveries.attempts} + 1` })
      .where(
        inArray(
          alertDeliveries.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
  });
  await Promise.all(claimed.map((d) => postOne(deps, d, now)));
  return claimed.length;
}

async function postOne(deps: DeliveryDeps, d: DeliveryRow, now: Date) {
  const alarm = (await alarmView(deps.db, d.alarmId))!;
  const [event] = await deps.db.select().from(alarmEvents).where(eq(alarmEvents.id, d.eventId));
  const body = JSON.stringify(webhookBody(alarm, event!, deps.origin));
  const secret = await webhookSecretOf(deps.db, d.subscriptionId, () => randomToken());
  const result = await postWebhook(
    d.recipient,
    body,
    { [SIGNATURE_HEADER]: signBody(secret, body), [EVENT_ID_HEADER]: `evt_${d.eventId}` },
    deps.webhookPrivate,
  );
  const giveUp = !result.ok && now.getTime() - d.createdAt.getTime() >= RETRY_FOR_MS;
  await inTransaction(deps.db, async (tx) => {
    await tx
      .insert(alertAttempts)
      .values({ deliveryId: d.id, at: now, ok: result.ok, detail: result.detail });
    await tx
      .update(alertDeliveries)
      .set(
        result.ok
          ? { state: "sent", sentAt: now, leaseUntil: null, lastError: null }
          : {
              state: giveUp ? "failed" : "queued",
              leaseUntil: null,
              lastError: result.detail,
              nextAttemptAt: new Date(now.getTime() + retryDelayMs(d.attempts)),
            },
      )
      .where(eq(alertDeliveries.id, d.id));
  });
}

/**
 * The webhook's JSON, stable in shape: `id` is the event's idempotency id (the same on every
 * retry), values in the channel's stored unit with `unit` saying which.
 */
export function webhookBody(alarm: AlarmView, event: typeof alarmEvents.$inferSelect, origin: string) {
  const temperature = alarm.channelKind !== null && isTemperatureKind(alarm.channelKind);
  return {
    id: `evt_${event.id}`,
    type: `alarm.${event.kind}`,
    occurredAt: event.at.toISOString(),
    alarm: {
      id: alarm.id,
      state: alarm.state,
      severity: alarm.severity,
      kind: alarm.kind,
      ruleId: alarm.ruleId,
      ruleName: alarm.ruleName,
      since: alarm.since.toISOString(),
      value: event.value ?? alarm.value,
      limit: alarm.limit,
      unit: temperature ? "°C" : (alarm.units ?? null),
      acknowledgedBy: alarm.acknowledgedBy,
      note: event.note,
    },
    device: { id: alarm.deviceId, name: alarm.deviceName },
    channel: alarm.channelKey
      ? { key: alarm.channelKey, name: alarm.channelName, kind: alarm.channelKind }
      : null,
    links: { alarm: `${origin}/s/alerts?alarm=${alarm.id}` },
  };
}
