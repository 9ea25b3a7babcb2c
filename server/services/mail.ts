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
  /** Files sent with the message (scheduled reports); the outbox keeps them with it. */
  attachments?: MailAttachment[];
  /**
   * A one-click unsubscribe address (RFC 8058; scheduled reports, visitors' alarm messages): sent
   * as `List-Unsubscribe` with `List-Unsubscribe-Post: List-Unsubscribe=One-Click`.
   */
  unsubscribeUrl?: string;
}
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}
export interface Mailer {
  send(mail: Mail): Promise<void>;
  /**
   * Sends a message already stored in the outbox (by a transaction of its own, as the alerts
   * store theirs) and marks it sent; without SMTP it stays for /dev/mailbox.
   */
  transmit?(id: number, mail: Mail): Promise<void>;
  /**
   * As `transmit`, but a refusal throws, so the caller can retry (scheduled reports); resolves
   * "stored" when there is no SMTP (the message stays for /dev/mailbox).
   */
  transmitOrThrow?(id: number, mail: Mail): Promise<"sent" | "stored">;
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
  const transmitOrThrow = async (id: number, mail: Mail) => {
    if (!transport) return "stored" as const;
    await transport.sendMail({
      from: FROM,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.attachments && {
        attachments: mail.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: Buffer.from(a.content),
        })),
      }),
      ...(mail.unsubscribeUrl && {
        headers: {
          "List-Unsubscribe": `<${mail.unsubscribeUrl}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      }),
    });
    await outbox.markSent(id, now());
    return "sent" as const;
  };
  const transmit = async (id: number, mail: Mail) => {
    try {
      await transmitOrThrow(id, mail);
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
    transmitOrThrow,
  };
}
