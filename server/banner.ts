import { DEMO, DEMO_PASSWORD, DEMO_USERS, OTHER_SUBSCRIPTION_USER } from "./seed/demo.ts";
import { ROLE_INFO } from "../src/domain/roles.ts";

export interface BannerInput {
  origin: string;
  /** local: DEMO unset, answers this computer only; shared: DEMO=1 on purpose. */
  demo: "off" | "local" | "shared";
  smtp: boolean;
  /** The loopback origin where /dev/mailbox answers; null when the server is not on loopback. */
  mailbox: string | null;
}

const DEMO_SCOPE = {
  local: "Demo mode answers only this computer (DEMO=1 shares it with others, DEMO=0 is for real use).",
  shared: "Demo mode is shared (DEMO=1): anyone who reaches this address can sign in as below.",
};

/** What `npm start` prints: where the portal is, the demo links and the demo sign-ins. */
export function banner({ origin, demo, smtp, mailbox }: BannerInput): string {
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
  );
  return lines.join("\n");
}

function mailLine(smtp: boolean, mailbox: string | null): string {
  const mail = "Mail (registration, password reset)";
  if (smtp) return `${mail} is sent through SMTP_URL.`;
  if (mailbox) return `${mail} waits in the outbox: ${mailbox}/dev/mailbox (this computer only)`;
  return `${mail} waits in the outbox table: set SMTP_URL, or listen on a loopback HOST to read /dev/mailbox.`;
}
