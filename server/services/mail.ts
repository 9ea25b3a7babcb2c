import { eq } from "drizzle-orm";
import { createTransport } from "nodemailer";
import type { Db } from "../db/client.ts";
import { outbox } from "../db/schema/index.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
}
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

const FROM = "Device Portal <no-reply@device-portal.example>";

/**
 * Every message is written to the outbox first; with an SMTP URL it is then sent and
 * marked sent. Without one it stays in the outbox, which demo mode shows at /dev/mailbox.
 */
export function createMailer(db: Db, smtpUrl: string | undefined): Mailer {
  const transport = smtpUrl ? createTransport(smtpUrl) : null;
  return {
    async send(mail) {
      const [row] = await db.insert(outbox).values(mail).returning();
      if (!transport) return;
      try {
        await transport.sendMail({ from: FROM, to: mail.to, subject: mail.subject, text: mail.text });
        await db.update(outbox).set({ sentAt: new Date() }).where(eq(outbox.id, row!.id));
      } catch (e) {
        // The message stays unsent in the outbox; the person can ask for a new link.
        console.error(JSON.stringify({ level: "error", what: "smtp send failed", error: String(e) }));
      }
    },
  };
}
