import type { MiddlewareHandler } from "hono";
import type { Action } from "../../src/domain/permissions.ts";
import type { Db } from "../db/client.ts";
import { authorize, requireAuth } from "./auth.ts";
import { requireOpsToken } from "./opsAuth.ts";

/**
 * Who may call a route:
 * - public: anyone (rate limits apply where the route says);
 * - token: whoever holds an unguessable link token (in the path, query or form);
 * - device: a device with its push key;
 * - demo: demo mode on this computer only;
 * - ops: the back office, with `Authorization: Bearer ops_…` (a live ops token; cookies count
 *   for nothing there, and the token opens no other route);
 * - session: a signed-in person whose role in the active subscription allows `action`
 *   (and who has accepted the terms, unless `beforeTerms`).
 */
export type Access =
  | { kind: "public" | "token" | "device" | "demo" | "ops" }
  | { kind: "session"; action: Action; beforeTerms?: true };

const session = (action: Action, beforeTerms?: true): Access =>
  beforeTerms ? { kind: "session", action, beforeTerms } : { kind: "session", action };
const PUBLIC: Access = { kind: "public" };
const TOKEN: Access = { kind: "token" };
const OPS: Access = { kind: "ops" };

/**
 * Every route of the app, as "METHOD /path" the way Hono registers it. A route missing here
 * cannot be guarded (guard throws while the app is built) and fails the access test.
 */
export const ACCESS = {
  "GET /healthz": PUBLIC,
  "GET /metrics": PUBLIC, // the route answers loopback or METRICS_TOKEN only, 404 to others
  "GET /runtime-config.json": PUBLIC,
  "GET /api/openapi.json": PUBLIC,
  "POST /api/v1/device-data/push": { kind: "device" },

  "GET /api/v1/session": session("account.view", true),
  "GET /api/v1/session/subscription/stats": session("account.view"),
  "GET /api/v1/session/terms-accepted": session("account.view", true),
  "POST /api/v1/session/terms-accepted": session("account.view", true),
  "PATCH /api/v1/session/settings": session("account.settings"),
  "POST /api/v1/session/active-subscription": session("account.settings"),
  "GET /api/v1/account-messages": session("account.view"),
  "POST /api/v1/account-messages/dismiss-message": session("account.view"),
  // Tags (issue 9): everybody reads them; managing them is tag.create, applying tag.apply.
  "GET /api/v1/tags": session("device.view"),
  "GET /api/v1/tags/:id": session("device.view"),
  "POST /api/v1/tags": session("tag.create"),
  "POST /api/v1/tags/bulk/": session("tag.create"),
  "PATCH /api/v1/tags/:id": session("tag.create"),
  "DELETE /api/v1/tags/:id": session("tag.create"),
  "POST /api/v1/tags/apply": session("tag.apply"),

  // Device pages (issue 9). TOKEN: the public page hash in the path is the device's
  // unguessable public link; deleting or regenerating it ends that access at once.
  "GET /api/v1/devices": session("device.view"),
  "GET /api/v1/device-data/device-details/:deviceId": session("device.view"),
  "GET /api/v1/device-data/public/device-details/:publicPageHash": TOKEN,
  // Public report page (issue 10). TOKEN: the report's public hash in the path.
  "GET /api/v1/device-data/public/report/:publicHash": TOKEN,
  "GET /api/v1/device-data/public/report/data/:hash": TOKEN,
  "GET /api/v1/device-data/public/report/compliance/:hash": TOKEN,
  // Report exports (issue 10). TOKEN: the report's public hash in the path or query.
  "GET /public/report-svg/:hash": TOKEN,
  "GET /api/v1/device-data/public/samples/csv": TOKEN,
  "GET /public/report-pdf/": TOKEN,
  // Report builder (issue 10): everyone reads, Administrator and Manager change.
  "GET /api/v1/reports": session("report.view"),
  "GET /api/v1/report-channels": session("report.view"),
  "GET /api/v1/reports/:id": session("report.view"),
  "POST /api/v1/reports": session("report.edit"),
  "PATCH /api/v1/reports/:id": session("report.edit"),
  "DELETE /api/v1/reports/:id": session("report.edit"),
  "POST /api/v1/reports/:id/public-link": session("report.edit"),
  "PATCH /api/v1/reports/:id/public-link": session("report.edit"),
  "DELETE /api/v1/reports/:id/public-link": session("report.edit"),
  // Visitor subscriptions and badges (issue 36). TOKEN: the report's or device's public hash,
  // or an emailed confirm/unsubscribe token; the owner's count and switch follow the builder.
  "GET /api/v1/reports/:id/visitors": session("report.view"),
  "PATCH /api/v1/reports/:id/visitors": session("report.edit"),
  "GET /api/v1/device-data/public/report/:hash/subscriptions": TOKEN,
  "POST /api/v1/device-data/public/report/:hash/subscriptions": TOKEN,
  "GET /api/v1/visitor-subscriptions/confirm": TOKEN,
  "POST /api/v1/visitor-subscriptions/confirm": TOKEN,
  "GET /api/v1/visitor-subscriptions/unsubscribe": TOKEN,
  "POST /api/v1/visitor-subscriptions/unsubscribe": TOKEN,
  "POST /api/v1/visitor-subscriptions/one-click/:token": TOKEN,
  "GET /public/report/:hash/badge.svg": TOKEN,
  "GET /public/device/:hash/badge.svg": TOKEN,
  // Scheduled reports (issue 36). TOKEN: the emailed unsubscribe link (its GET changes nothing).
  "GET /api/v1/reports/:id/schedules": session("report.view"),
  "POST /api/v1/reports/:id/schedules": session("report.edit"),
  "PATCH /api/v1/report-schedules/:id": session("report.edit"),
  "DELETE /api/v1/report-schedules/:id": session("report.edit"),
  "GET /report-unsubscribe": TOKEN,
  "POST /report-unsubscribe": TOKEN,
  "PATCH /api/v1/device-data/update-device/:deviceId": session("device.edit"),
  "PATCH /api/v1/device-data/update-sensor/": session("sensor.edit"),
  "POST /api/v1/device-data/public-link/:deviceId": session("publicLink.manage"),
  "DELETE /api/v1/device-data/public-link/:deviceId": session("publicLink.manage"),
  "GET /api/v1/alerts/channel-list/:deviceId": session("device.view"),
  // Alerts (issue 34): everyone sees rules and alarms, Administrators and Managers change rules.
  // TOKEN: the emailed acknowledge link's token (its GET changes nothing).
  "GET /api/v1/alerts/rules": session("alert.view"),
  "POST /api/v1/alerts/rules": session("alert.edit"),
  "PATCH /api/v1/alerts/rules/:id": session("alert.edit"),
  "DELETE /api/v1/alerts/rules/:id": session("alert.edit"),
  "GET /api/v1/alerts/webhook-secret": session("alert.edit"),
  "POST /api/v1/alerts/devices/:deviceId/mute": session("alert.edit"),
  "GET /api/v1/alerts": session("alert.view"),
  "GET /api/v1/alerts/:id": session("alert.view"),
  "POST /api/v1/alerts/:id/acknowledge": session("alert.acknowledge"),
  "GET /api/v1/audit": session("audit.view"),
  "GET /api/v1/audit/export.csv": session("audit.view"),
  "POST /api/v1/audit/verify": session("audit.view"),
  "GET /api/v1/alerts/by-link": TOKEN,
  "POST /api/v1/alerts/by-link/acknowledge": TOKEN,
  // The alarm story and pinned comments on the charts (issue 36).
  "GET /api/v1/chart-marks/:channelKey": session("device.view"),
  "POST /api/v1/chart-comments": session("chart.comment"),
  "DELETE /api/v1/chart-comments/:id": session("chart.comment"),
  "GET /api/v1/reports/:id/alarm-notes": session("report.view"),
  "PATCH /api/v1/reports/:id/alarm-notes": session("report.edit"),
  "GET /api/v1/device-data/public/report/marks/:hash": TOKEN,
  "GET /api/v1/device-data/channel-history/:channelKey": session("device.view"),
  "GET /api/v1/links/:linkId": session("device.view"),
  "POST /devices/data/change-device-location": session("device.edit"),
  "GET /devices/data/download-device-data-by-date-range/:deviceId": session("device.download"),
  // Live readings (issue 9): each subscribe message on the socket is checked as GET
  // device-details (device.view) or as the public device page (its current hash).
  "GET /ws": PUBLIC,
  "GET /api/v1/account/mfa": session("account.settings"),
  "POST /api/v1/account/mfa/setup": session("account.settings"),
  "POST /api/v1/account/mfa/enable": session("account.settings"),
  "POST /api/v1/account/mfa/disable": session("account.settings"),
  "DELETE /api/v1/account/mfa/remembered-devices": session("account.settings"),
  "GET /api/v1/account/sessions": session("account.settings"),
  "DELETE /api/v1/account/sessions/others": session("account.settings"),

  // Public quote and order pages, lookup, tracking and guest payments (issue 8). TOKEN: the
  // path carries the record's unguessable token (ORD-{id}-{validationId}, the quote token).
  // GET /api/v1/quotes/public/:id is PUBLIC: QUO-{n} shows the summary card only.
  "GET /api/v1/orders/public/:ref": TOKEN,
  "GET /api/v1/shipments/shipment-list/:ref": TOKEN,
  "GET /api/v1/quotes/public/:id": PUBLIC,
  // Signed-in quote and order pages (issue 11): every role reads its subscription's records.
  "GET /api/v1/orders": session("order.view"),
  "GET /api/v1/orders/:orderId": session("order.view"),
  "GET /api/v1/orders/:orderId/receipt/:paymentId": session("order.view"),
  "GET /api/v1/shipments/shipment-list/order/:orderId": session("order.view"),
  "GET /api/v1/quotes": session("quote.view"),
  "GET /api/v1/quotes/:quoteId": session("quote.view"),
  "GET /api/v1/orders-and-quotes/public/search": PUBLIC,
  "GET /order/country-list": PUBLIC,
  "GET /shipments/tracking-details/:trackingNumber": PUBLIC,
  "POST /order/public/:ref/pay-amount-due": TOKEN,
  "GET /order/public/:ref/receipt/:paymentId": TOKEN,
  "POST /quote/public/:token/order": TOKEN,
  // Signed-in ordering (issue 11): rates, tax and the order itself are quote.pay, the balance order.pay.
  "POST /quote/shipping-rates": session("quote.pay"),
  "POST /quote/tax": session("quote.pay"),
  "POST /quote/order": session("quote.pay"),
  "POST /order/pay-amount-due": session("order.pay"),
  "GET /quote/requested-pdf/:quoteId": session("quote.view"),
  // Grant Account Access (issue 11): Administrators of a non-federated subscription.
  "POST /subscription/data/grant-access": session("access.grant"),

  "POST /gateway/check-email": PUBLIC,
  "POST /gateway/submit": PUBLIC,
  "POST /gateway/verify-otp": PUBLIC,
  "POST /gateway/logout": PUBLIC,
  "POST /gateway/request-password-reset": PUBLIC,
  "GET /gateway/reset-password/check": TOKEN,
  "POST /gateway/reset-password": TOKEN,
  "POST /user/new/sign-up": PUBLIC,
  "GET /user/validate/check": TOKEN,
  "POST /user/validate": TOKEN,
  "GET /auth/saml/login/:name": PUBLIC,
  "GET /auth/saml/metadata/:name": PUBLIC,
  "POST /auth/saml/acs/:name": PUBLIC,
  "GET /auth/saml/complete": TOKEN,
  "GET /dev/mailbox": { kind: "demo" },
  "GET /dev/mailbox/attachments/:id": { kind: "demo" },
  "POST /dev/report-schedules/run": { kind: "demo" },

  // The back-office operations API (issue 11): ops tokens only.
  "POST /api/v1/ops/quotes": OPS,
  "PATCH /api/v1/ops/quotes/:quoteId": OPS,
  "POST /api/v1/ops/quotes/:quoteId/close": OPS,
  "POST /api/v1/ops/orders/:orderId/shipments": OPS,
  "POST /api/v1/ops/tracking/:trackingNumber/activity": OPS,
  "POST /api/v1/ops/orders/:orderId/payments": OPS,
} satisfies Record<string, Access>;
export type RouteKey = keyof typeof ACCESS;

/** The table's entry for a route, or undefined (the access test lists the missing ones). */
export function accessOf(method: string, path: string): Access | undefined {
  return (ACCESS as Record<string, Access>)[`${method.toUpperCase()} ${path}`];
}

/**
 * The middleware a route's access entry asks for: session routes need a signed-in person
 * allowed to do the action, ops routes a live ops token; the others pass (their own checks are the token, the device key,
 * or demo mode). Throws while the app is built when the route is not in the table.
 */
export function guard(route: { method: string; path: string }, deps: { db: Db; now: () => Date }) {
  const access = accessOf(route.method, route.path);
  if (!access) throw new Error(`${route.method.toUpperCase()} ${route.path} is not in the access table`);
  if (access.kind === "ops") return requireOpsToken(deps.db, deps.now);
  if (access.kind !== "session") {
    const pass: MiddlewareHandler = async (_c, next) => next();
    return pass;
  }
  const signedIn = requireAuth(deps.db, deps.now, { beforeTerms: access.beforeTerms === true });
  const allowed: MiddlewareHandler = async (c, next) =>
    signedIn(c, async () => {
      authorize(c.get("auth")!, access.action);
      await next();
    });
  return allowed;
}
