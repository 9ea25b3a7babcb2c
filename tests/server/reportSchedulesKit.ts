import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { rows, type Db } from "../../server/db/client.ts";
import { reportSchedules } from "../../server/db/schema/index.ts";
import { nextRunOf } from "../../server/data/reportDeliveries.ts";

/** The first report of the admin's subscription, and the admin's user id. */
export async function adminReport(db: Db) {
  const [row] = await rows<{ reportId: number; subscriptionId: number; userId: number }>(
    db,
    sql`select r.id as "reportId", r.subscription_id as "subscriptionId", u.id as "userId"
        from reports r join user_assignments ua on ua.subscription_id = r.subscription_id
        join users u on u.id = ua.user_id where u.email = 'admin@example.com' order by r.id limit 1`,
  );
  return row!;
}

/** Writes a schedule whose first run is the first send after `from`. */
export async function addSchedule(
  db: Db,
  base: { reportId: number; subscriptionId: number },
  s: {
    cadence: "daily" | "weekly" | "monthly";
    hour: number;
    weekday?: number;
    timeZone: string;
    format?: string;
    memberIds?: number[];
    emails?: string[];
  },
  from: Date,
) {
  const timing = { cadence: s.cadence, hour: s.hour, weekday: s.weekday ?? 1, timeZone: s.timeZone };
  const [row] = await db
    .insert(reportSchedules)
    .values({
      ...base,
      ...timing,
      scale: "C",
      format: s.format ?? "csv",
      memberIds: s.memberIds ?? [],
      emails: s.emails ?? [],
      nextRunAt: nextRunOf(timing, from),
    })
    .returning();
  return row!;
}

/** A real SMTP server on loopback that refuses the first `refuse` messages, then keeps them. */
export async function refusingSmtp(refuse: number) {
  const received: string[] = [];
  let refused = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, done) {
      let text = "";
      stream.on("data", (chunk: Buffer) => (text += chunk.toString()));
      stream.on("end", () => {
        if (refused < refuse) {
          refused++;
          const error = Object.assign(new Error("Mailbox busy, try later"), { responseCode: 451 });
          return done(error);
        }
        received.push(text);
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}?ignoreTLS=true`, received, close: () => smtp.close() };
}
