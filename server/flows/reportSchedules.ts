// One tick of the scheduled reports (every instance, every REPORT_SCHEDULE_TICK_MS): queue the
// due runs (claimed with FOR UPDATE SKIP LOCKED, server/data/reportDeliveries.ts), then send
// the due deliveries: each message stored once in the outbox with its files, handed to SMTP,
// and retried with backoff when SMTP refuses. Knows no Hono.
import { randomToken, sha256 } from "../core/crypto.ts";
import type { Db } from "../db/client.ts";
import {
  claimDeliveries,
  queueDueRuns,
  storedMessage,
  storeMessage,
  type DeliveryRow,
  type ScheduleRow,
} from "../data/reportDeliveries.ts";
import type { Mail, Mailer } from "../services/mail.ts";
import { scheduledFiles } from "./reportScheduleFiles.ts";
import { settleRecorded } from "./reportScheduleAudit.ts";
import { RETRY_FOR_MS, retryDelayMs } from "../../src/domain/alerts.ts";
import type { EpochSeconds } from "../../src/domain/brand.ts";
import { formatDate } from "../../src/domain/dates.ts";
import { PERIOD_NAMES, periodBefore, type Cadence, type Period } from "../../src/domain/reportSchedule.ts";

export interface ScheduleDeps {
  db: Db;
  mailer: Mailer;
  /** Where links in messages point (http/links.ts). */
  origin: string;
  /** AUDIT_KEY: the scheduler's audit rows are chained with it (flows/audited.ts). */
  auditKey?: string | undefined;
}

/** A delivery being sent is left alone by other instances this long. */
const LEASE_MS = 5 * 60_000;
/** How long the stored copy keeps the unsubscribe link (the link itself keeps working). */
const LINK_KEPT_MS = 30 * 86_400_000;
export const UNSUBSCRIBE_PATH = "/report-unsubscribe";

const secs = (d: Date) => Math.floor(d.getTime() / 1000) as EpochSeconds;
const UNSUBSCRIBE_IN_TEXT = /https?:\/\/\S+\/report-unsubscribe\?token=[A-Za-z0-9_-]+/;

/** The period's words: "Yesterday, Nov 28, 2026" or "Last week, Nov 16, 2026 to Nov 22, 2026". */
function periodText(cadence: Cadence, period: Period, zone: string) {
  const first = formatDate(period.start, zone);
  const last = formatDate((period.end - 1) as EpochSeconds, zone);
  return `${PERIOD_NAMES[cadence]}, ${first === last ? first : `${first} to ${last}`}`;
}

function reportMail(
  s: ScheduleRow,
  d: DeliveryRow,
  files: NonNullable<Awaited<ReturnType<typeof scheduledFiles>>>,
  unsubscribeUrl: string,
  now: Date,
  when: string,
): Mail {
  const names = files.files.map((f) => f.filename).join(", ");
  return {
    to: d.recipient,
    subject: `${files.name}: ${when}`,
    text: [
      `Your scheduled report "${files.name}" for ${when} (${s.timeZone}) is attached: ${names || "no files"}.`,
      ...(files.csvLeftOut ? ["The CSV is not included in this report's subscription plan."] : []),
      "",
      `To stop receiving this report, open ${unsubscribeUrl} and confirm.`,
    ].join("\n"),
    attachments: files.files,
    unsubscribeUrl,
    secretUntil: new Date(now.getTime() + LINK_KEPT_MS),
  };
}

/** Sends the claimed deliveries; the files of a run are built once for all its recipients. */
export async function deliverReports(deps: ScheduleDeps, now: Date): Promise<number> {
  const claimed = await claimDeliveries(deps.db, now, LEASE_MS);
  const builds = new Map<string, ReturnType<typeof scheduledFiles>>();
  for (const { delivery: d, schedule: s } of claimed) {
    const period = periodText(
      s.cadence as Cadence,
      periodBefore({ cadence: s.cadence as Cadence, timeZone: s.timeZone }, secs(d.runAt)),
      s.timeZone,
    );
    let mail: Mail | undefined;
    const settle = (outcome: Parameters<typeof settleRecorded>[2]) =>
      settleRecorded(
        deps,
        { delivery: d, schedule: s, period, files: mail?.attachments?.map((f) => f.filename) },
        outcome,
        now,
      );
    try {
      let id = d.outboxId;
      if (id === null) {
        const key = `${s.id}:${d.runAt.getTime()}`;
        const build =
          builds.get(key) ??
          scheduledFiles(deps.db, {
            reportId: s.reportId,
            period: periodBefore({ cadence: s.cadence as Cadence, timeZone: s.timeZone }, secs(d.runAt)),
            timeZone: s.timeZone,
            scale: s.scale,
            format: s.format,
            liveUrl: `${deps.origin}/s/reports`,
            now,
          });
        builds.set(key, build);
        const files = await build;
        if (!files) {
          await settle({ error: "The report was deleted.", retryAt: null });
          continue;
        }
        const token = randomToken();
        mail = reportMail(s, d, files, `${deps.origin}${UNSUBSCRIBE_PATH}?token=${token}`, now, period);
        id = await storeMessage(deps.db, d.id, mail, sha256(token), now);
      } else {
        const stored = await storedMessage(deps.db, id);
        if (!stored) throw new Error("stored message missing");
        const url = UNSUBSCRIBE_IN_TEXT.exec(stored.text)?.[0];
        mail = { ...stored, ...(url && { unsubscribeUrl: url }) };
      }
      if (deps.mailer.transmitOrThrow) await deps.mailer.transmitOrThrow(id, mail);
      else await deps.mailer.transmit?.(id, mail);
      await settle({ sentAt: now });
    } catch (e) {
      const giveUp = now.getTime() - d.createdAt.getTime() >= RETRY_FOR_MS;
      await settle({
        error: String(e instanceof Error ? e.message : e),
        retryAt: giveUp ? null : new Date(now.getTime() + retryDelayMs(d.attempts)),
      });
    }
  }
  return claimed.length;
}

/** One scheduler tick: queue the due runs, then send what is due. */
export function reportScheduleTask(deps: ScheduleDeps) {
  return async (now: Date) => {
    while ((await queueDueRuns(deps.db, now)) > 0);
    while ((await deliverReports(deps, now)) > 0);
  };
}
