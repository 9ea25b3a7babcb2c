// Scheduled reports' figure (issue 36): the delay from a schedule's due instant until its
// message (a PDF attached) is handed to SMTP, with the default tick (REPORT_SCHEDULE_TICK_MS,
// 60 s) on the embedded database. Twelve schedules fall due 5 s apart over one minute, so the
// delays cover every phase of the tick. Run with `node scripts/bench/reportSchedules.ts`
// (about two minutes).
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { parseConfig } from "../../server/config.ts";
import { startRepeatingJob } from "../../server/core/repeatingJob.ts";
import { openDatabase, rows } from "../../server/db/client.ts";
import { reportSchedules } from "../../server/db/schema/index.ts";
import { outboxStore } from "../../server/data/outbox.ts";
import { reportScheduleTask } from "../../server/flows/reportSchedules.ts";
import { createMailer } from "../../server/services/mail.ts";
import { seedDemo } from "../../server/seed/index.ts";

const SCHEDULES = 12;
const SPREAD_MS = 5000;

const pct = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.ceil((p / 100) * values.length) - 1]!;

const arrived = new Map<string, number>();
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  onRcptTo(address, _session, done) {
    arrived.set(address.address, Date.now());
    done();
  },
  onData(stream, _session, done) {
    stream.resume();
    stream.on("end", () => done());
  },
});
await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}?ignoreTLS=true`;

const database = await openDatabase({});
const { db } = database;
await seedDemo(db, { now: new Date(), sampleDays: 1 });
const tickMs = parseConfig({ DATA_DIR: "/tmp/unused", DEMO: "0" }).reportScheduleTickMs;
const [report] = await rows<{ id: number; subscriptionId: number }>(
  db,
  sql`select id, subscription_id as "subscriptionId" from reports order by id limit 1`,
);
const start = Date.now() + 2000;
const due = new Map<string, number>();
for (let i = 0; i < SCHEDULES; i++) {
  const at = start + i * SPREAD_MS;
  const to = `bench${i}@example.net`;
  due.set(to, at);
  await db.insert(reportSchedules).values({
    reportId: report!.id,
    subscriptionId: report!.subscriptionId,
    cadence: "daily",
    hour: 0,
    weekday: 1,
    timeZone: "UTC",
    scale: "C",
    format: "pdf",
    memberIds: [],
    emails: [to],
    nextRunAt: new Date(at),
  });
}
const stop = startRepeatingJob(
  "report schedules",
  reportScheduleTask({
    db,
    mailer: createMailer(outboxStore(db), smtpUrl, () => new Date()),
    origin: "http://localhost",
  }),
  { intervalMs: tickMs },
);
const deadline = start + SCHEDULES * SPREAD_MS + 2 * tickMs + 30_000;
while (arrived.size < SCHEDULES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
stop();
const delays = [...due].flatMap(([to, at]) => {
  const got = arrived.get(to);
  return got === undefined ? [] : [(got - at) / 1000];
});
console.log(
  `report schedules (PGlite, tick ${tickMs / 1000} s): ${delays.length}/${SCHEDULES} handed to SMTP; ` +
    `due → SMTP p50 ${pct(delays, 50).toFixed(1)} s, p95 ${pct(delays, 95).toFixed(1)} s, max ${Math.max(...delays).toFixed(1)} s`,
);
smtp.close();
await database.close();
