import { sha256 } from "../core/crypto.ts";
import { Role, type RoleId } from "../../src/domain/roles.ts";

/** A fixed token that looks random (144 bits): the demo keeps the same links every run. */
export const demoToken = (name: string) =>
  Buffer.from(sha256(`demo-token:${name}`), "hex")
    .subarray(0, 18)
    .toString("base64url");

/** The hex form (128 bits) for quote tokens, which must never contain 'ord' (see hexToken). */
export const demoHexToken = (name: string) => sha256(`demo-token:${name}`).slice(0, 32);

export const DEMO_PASSWORD = "demo-password-1";

/** The demo sign-ins, one per role; all share DEMO_PASSWORD. */
export const DEMO_USERS: readonly {
  email: string;
  first: string;
  last: string;
  role: RoleId;
  termsAccepted: boolean;
}[] = [
  { email: "admin@example.com", first: "Ada", last: "Admin", role: Role.ADMINISTRATOR, termsAccepted: true },
  { email: "manager@example.com", first: "Max", last: "Manager", role: Role.MANAGER, termsAccepted: true },
  { email: "viewer@example.com", first: "Vera", last: "Viewer", role: Role.VIEWER, termsAccepted: true },
  {
    email: "provisioner@example.com",
    first: "Paul",
    last: "Provisioner",
    role: Role.PROVISIONER,
    termsAccepted: true,
  },
  { email: "billing@example.com", first: "Bill", last: "Billing", role: Role.BILLING, termsAccepted: true },
  { email: "newhire@example.com", first: "Nia", last: "Newhire", role: Role.VIEWER, termsAccepted: false },
];
export const OTHER_SUBSCRIPTION_USER = {
  email: "owner@northwind.example.com",
  first: "Nora",
  last: "Northwind",
};

/** Links printed by `npm start` and used by tests. */
export const DEMO = {
  reportHash: demoToken("report-lab-24h"),
  fixedReportHash: demoToken("report-lab-fixed"),
  raDeviceHash: demoToken("device-ra"),
  ramaxDeviceHash: demoToken("device-ramax"),
  otherDeviceHash: demoToken("device-ws"),
  openQuoteId: 1001,
  closedQuoteId: 1002,
  expiredQuoteId: 1003,
  openQuoteToken: demoHexToken("quote-1001"),
  closedQuoteToken: demoHexToken("quote-1002"),
  expiredQuoteToken: demoHexToken("quote-1003"),
  orderId: 5003,
  orderValidationId: demoToken("order-5003"),
} as const;
