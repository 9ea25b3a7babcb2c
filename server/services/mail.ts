import { createTransport } from "nodemailer";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /**
   * When the one-time link in the text stops working. The outbox keeps the link only until
   * then, or until the message is sent, whichever comes first (server/data/outbox.ts).
   */
  secretUntil?: Date;
  /** Extra headers for SMTP (List-Unsubscribe of the visitors' alarm messages); the outbox keeps none. */
  headers?: Record<string, string>;
}
export interface Mailer {
  send(mail: Mail): Promise<void>;
  /**
   * Sends a message already stored in the outbox (by a transaction of its own, as the alerts
   * store theirs) and marks it sent; without SMTP it stays for /dev/mailbox.
   */
  transmit?(id: number, mail: Mail): Promise<void>;
}
/** Where messages are kept (data/outbox.ts in the app). */
export interface Outbox {
  /** Writes the message, made at `at` (the portal's clock: retention counts from it). */
  add(mail: Mail, at: Date): Promise<number>;
  markSent(id: number, at: Date): Promise<void>;
}

const FROM = "Device Portal <no-reply@device-portal.example>";

/**
 * Every message is written to the outbox first; with an SMTP URL it is then sent and
 * marked sent. Without one it stays in the outbox, which demo mode shows at /dev/mailbox.
 */
export function createMailer(outbox: Outbox, smtpUrl: string | undefined, now: () => Date): Mailer {
  const transport = smtpUrl ? createTransport(smtpUrl) : null;
  const transmit = async (id: number, mail: Mail) => {
    if (!transport) return;
    try {
      await transport.sendMail({
        from: FROM,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.headers ? { headers: mail.headers } : {}),
      });
      await outbox.markSent(id, now());
    } catch (e) {
      // The message stays unsent in the outbox; the person can ask for a new link.
      console.error(JSON.stringify({ level: "error", what: "smtp send failed", error: String(e) }));
    }
  };
  return {
    async send(mail) {
      await transmit(await outbox.add(mail, now()), mail);
    },
    transmit,
  };
}
