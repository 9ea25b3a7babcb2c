import { DEMO, DEMO_PASSWORD, DEMO_USERS, OTHER_SUBSCRIPTION_USER } from "./db/seed/demo.ts";
import { ROLE_INFO } from "../src/domain/roles.ts";

/** What `npm start` prints: where the portal is, the demo links and the demo sign-ins. */
export function banner(origin: string, demo: boolean, smtp = false): string {
  const lines = [`Portal ready on ${origin}`];
  if (!demo) return lines.join("\n");
  lines.push(
    "",
    "Demo links (no sign-in needed):",
    `  Public report            ${origin}/public/report/${DEMO.reportHash}?tempScale=F&timezone=UTC`,
    `  Public device (RA type)  ${origin}/p/device/${DEMO.raDeviceHash}`,
    `  Public device (RAMAX)    ${origin}/p/device/${DEMO.ramaxDeviceHash}`,
    `  Public device (other)    ${origin}/public/device/${DEMO.otherDeviceHash}`,
    `  Public quote             ${origin}/p/quote/QUO-${DEMO.openQuoteId}`,
    `  Public order             ${origin}/p/order/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`,
    `  Quote and Order Lookup   ${origin}/p/order-quote/search   (try QUO-${DEMO.openQuoteId} / Dana Whitfield)`,
    "",
    `Demo sign-ins (password: ${DEMO_PASSWORD}) at ${origin}/gateway:`,
    ...DEMO_USERS.map(
      (u) =>
        `  ${ROLE_INFO[u.role].displayName.padEnd(14)} ${u.email}${u.termsAccepted ? "" : "   (has not accepted the terms yet)"}`,
    ),
    `  ${"Administrator".padEnd(14)} ${OTHER_SUBSCRIPTION_USER.email}   (another subscription)`,
    "",
    smtp
      ? "Mail (registration, password reset) is sent through SMTP_URL."
      : `Mail (registration, password reset) waits in the outbox: ${origin}/dev/mailbox`,
  );
  return lines.join("\n");
}
