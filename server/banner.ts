import { DEMO, DEMO_PASSWORD, DEMO_USERS, OTHER_SUBSCRIPTION_USER } from "./seed/demo.ts";
import { ROLE_INFO } from "../src/domain/roles.ts";
import { type HistoryProgress, historyProgressText } from "./seed/history.ts";

export interface BannerInput {
  origin: string;
  /** local: DEMO unset, answers this computer only; shared: DEMO=1 on purpose. */
  demo: "off" | "local" | "shared";
  smtp: boolean;
  /** The loopback origin where /dev/mailbox answers; null when the server is not on loopback. */
  mailbox: string | null;
  /** Whether each request is written as a JSON line below the banner (LOG_REQUESTS). */
  requestLog: boolean;
}

const DEMO_SCOPE = {
  local: "Demo mode answers only this computer (DEMO=1 shares it with others, DEMO=0 is for real use).",
  shared: "Demo mode is shared (DEMO=1): anyone who reaches this address can sign in as below.",
};

/** What `npm start` prints: where the portal is, the demo links and the demo sign-ins. */
export function banner({ origin, demo, smtp, mailbox, requestLog }: BannerInput): string {
  const lines = [`Portal ready on ${origin}`];
  if (demo === "off") return lines.join("\n");
  lines.push(
    "",
    DEMO_SCOPE[demo],
    "",
    "Demo links (no sign-in needed):",
    `  Public report            ${origin}/public/report/${DEMO.reportHash}?tempScale=F&timezone=UTC`,
    `  Public device (RA type)  ${origin}/p/device/${DEMO.raDeviceHash}`,
    `  Public device (RAMAX)    ${origin}/p/device/${DEMO.ramaxDeviceHash}`,
    `  Public device (other)    ${origin}/public/device/${DEMO.otherDeviceHash}`,
    `  Public quote (summary)   ${origin}/p/quote/QUO-${DEMO.openQuoteId}`,
    `  Public quote (its link)  ${origin}/p/quote/${DEMO.openQuoteToken}`,
    `  Public order             ${origin}/p/order/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`,
    `  Pay an order as a guest  ${origin}/p/order/pay-as-guest/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`,
    `  Quote and Order Lookup   ${origin}/p/order-quote/search   (try QUO-${DEMO.openQuoteId} / Dana Whitfield)`,
    `  Test card                4242 4242 4242 4242, any future expiry, any CVC (README lists the others)`,
    "",
    `Demo sign-ins (password: ${DEMO_PASSWORD}) at ${origin}/gateway:`,
    ...DEMO_USERS.map(
      (u) =>
        `  ${ROLE_INFO[u.role].displayName.padEnd(14)} ${u.email}${u.termsAccepted ? "" : "   (has not accepted the terms yet)"}`,
    ),
    `  ${"Administrator".padEnd(14)} ${OTHER_SUBSCRIPTION_USER.email}   (another subscription)`,
    "",
    mailLine(smtp, mailbox),
    requestLog
      ? "Request log: a JSON line per request follows (LOG_REQUESTS=0 turns it off)."
      : "Request log: off, so these links stay on screen (LOG_REQUESTS=1 writes a JSON line per request).",
  );
  return lines.join("\n");
}

function mailLine(smtp: boolean, mailbox: string | null): string {
  const mail = "Mail (registration, password reset)";
  if (smtp) return `${mail} is sent through SMTP_URL.`;
  if (mailbox) return `${mail} waits in the outbox: ${mailbox}/dev/mailbox (this computer only)`;
  return `${mail} waits in the outbox table: set SMTP_URL, or listen on a loopback HOST to read /dev/mailbox.`;
}

/** Where start-up text goes: a terminal (one line rewritten in place) or a pipe or file. */
export interface Out {
  isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * Prints the background history fill under the banner without pushing it away: on a terminal
 * one line that updates in place, elsewhere a line at each quarter; then one line when done.
 */
export function historyReporter(out: Out) {
  let shown = -1;
  return {
    progress(p: HistoryProgress) {
      if (out.isTTY) return void out.write(`\r${historyProgressText(p)}\x1b[K`);
      const quarter = Math.floor((p.done / Math.max(1, p.total)) * 4);
      if (quarter > shown && quarter < 4) out.write(`${historyProgressText(p)}\n`);
      shown = quarter;
    },
    done(days: number) {
      const text = `Demo report history complete: minute readings of the report's sensors back ${days} days.`;
      out.write(out.isTTY ? `\r${text}\x1b[K\n` : `${text}\n`);
    },
  };
}
