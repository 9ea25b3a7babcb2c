import type { Action } from "../../src/domain/permissions.ts";
import { Role, type RoleId } from "../../src/domain/roles.ts";

/*
 * The expected answers of the role checks, written out here and never read from the code
 * under test (src/domain/permissions.ts, server/http/access.ts): spec section 6 where it says
 * (device name, tags and public link for ADMIN and MANAGER; tag creation for Administrator and
 * Manager; grant access), docs/decisions.md where it is silent. A wrong matrix entry or a
 * wrong access table entry then fails tests/domain/permissions.test.ts or the access test.
 */

/** A = Administrator, M = Manager, V = Viewer, P = Provisioner, B = Billing. */
export const ROLE_LETTER: Record<RoleId, string> = {
  [Role.ADMINISTRATOR]: "A",
  [Role.MANAGER]: "M",
  [Role.VIEWER]: "V",
  [Role.PROVISIONER]: "P",
  [Role.BILLING]: "B",
};

/** Who may do each of the 22 actions. */
export const ACTION_ROLES: Record<Action, string> = {
  "device.view": "A M V P B",
  "device.edit": "A M",
  "device.download": "A M V P B",
  "publicLink.manage": "A M",
  "tag.create": "A M",
  "tag.apply": "A M",
  "sensor.edit": "A M P",
  "quote.view": "A M V P B",
  "quote.pay": "A M B",
  "order.view": "A M V P B",
  "order.pay": "A M B",
  "share.link": "A M B",
  "access.grant": "A",
  "account.view": "A M V P B",
  "account.settings": "A M V P B",
  "report.view": "A M V P B",
  "report.edit": "A M",
  "alert.view": "A M V P B",
  "alert.edit": "A M",
  "alert.acknowledge": "A M P",
  "audit.view": "A",
  "chart.comment": "A M",
};

/** The action each signed-in route requires, as "METHOD /path" the way Hono registers it. */
export const ROUTE_ACTION: Record<string, Action> = {
  "GET /api/v1/session": "account.view",
  "GET /api/v1/session/subscription/stats": "account.view",
  "GET /api/v1/session/terms-accepted": "account.view",
  "POST /api/v1/session/terms-accepted": "account.view",
  "PATCH /api/v1/session/settings": "account.settings",
  "POST /api/v1/session/active-subscription": "account.settings",
  "GET /api/v1/account-messages": "account.view",
  "POST /api/v1/account-messages/dismiss-message": "account.view",
  "GET /api/v1/tags": "device.view",
  "GET /api/v1/tags/:id": "device.view",
  "POST /api/v1/tags": "tag.create",
  "POST /api/v1/tags/bulk/": "tag.create",
  "PATCH /api/v1/tags/:id": "tag.create",
  "DELETE /api/v1/tags/:id": "tag.create",
  "POST /api/v1/tags/apply": "tag.apply",
  "GET /api/v1/devices": "device.view",
  "GET /api/v1/device-data/device-details/:deviceId": "device.view",
  "GET /api/v1/reports": "report.view",
  "GET /api/v1/report-channels": "report.view",
  "GET /api/v1/reports/:id": "report.view",
  "POST /api/v1/reports": "report.edit",
  "PATCH /api/v1/reports/:id": "report.edit",
  "DELETE /api/v1/reports/:id": "report.edit",
  "POST /api/v1/reports/:id/public-link": "report.edit",
  "PATCH /api/v1/reports/:id/public-link": "report.edit",
  "DELETE /api/v1/reports/:id/public-link": "report.edit",
  "GET /api/v1/reports/:id/visitors": "report.view",
  "PATCH /api/v1/reports/:id/visitors": "report.edit",
  "GET /api/v1/reports/:id/schedules": "report.view",
  "POST /api/v1/reports/:id/schedules": "report.edit",
  "PATCH /api/v1/report-schedules/:id": "report.edit",
  "DELETE /api/v1/report-schedules/:id": "report.edit",
  "PATCH /api/v1/device-data/update-device/:deviceId": "device.edit",
  "PATCH /api/v1/device-data/update-sensor/": "sensor.edit",
  "POST /api/v1/device-data/public-link/:deviceId": "publicLink.manage",
  "DELETE /api/v1/device-data/public-link/:deviceId": "publicLink.manage",
  "GET /api/v1/alerts/channel-list/:deviceId": "device.view",
  "GET /api/v1/alerts/rules": "alert.view",
  "POST /api/v1/alerts/rules": "alert.edit",
  "PATCH /api/v1/alerts/rules/:id": "alert.edit",
  "DELETE /api/v1/alerts/rules/:id": "alert.edit",
  "GET /api/v1/alerts/webhook-secret": "alert.edit",
  "POST /api/v1/alerts/devices/:deviceId/mute": "alert.edit",
  "GET /api/v1/alerts": "alert.view",
  "GET /api/v1/alerts/:id": "alert.view",
  "POST /api/v1/alerts/:id/acknowledge": "alert.acknowledge",
  "GET /api/v1/audit": "audit.view",
  "GET /api/v1/audit/export.csv": "audit.view",
  "POST /api/v1/audit/verify": "audit.view",
  "GET /api/v1/chart-marks/:channelKey": "device.view",
  "POST /api/v1/chart-comments": "chart.comment",
  "DELETE /api/v1/chart-comments/:id": "chart.comment",
  "GET /api/v1/reports/:id/alarm-notes": "report.view",
  "PATCH /api/v1/reports/:id/alarm-notes": "report.edit",
  "GET /api/v1/device-data/channel-history/:channelKey": "device.view",
  "GET /api/v1/links/:linkId": "device.view",
  "POST /devices/data/change-device-location": "device.edit",
  "GET /devices/data/download-device-data-by-date-range/:deviceId": "device.download",
  "GET /api/v1/account/mfa": "account.settings",
  "POST /api/v1/account/mfa/setup": "account.settings",
  "POST /api/v1/account/mfa/enable": "account.settings",
  "POST /api/v1/account/mfa/disable": "account.settings",
  "DELETE /api/v1/account/mfa/remembered-devices": "account.settings",
  "GET /api/v1/account/sessions": "account.settings",
  "DELETE /api/v1/account/sessions/others": "account.settings",
  "GET /api/v1/orders": "order.view",
  "GET /api/v1/orders/:orderId": "order.view",
  "GET /api/v1/orders/:orderId/receipt/:paymentId": "order.view",
  "GET /api/v1/shipments/shipment-list/order/:orderId": "order.view",
  "GET /api/v1/quotes": "quote.view",
  "GET /api/v1/quotes/:quoteId": "quote.view",
  "POST /quote/shipping-rates": "quote.pay",
  "POST /quote/tax": "quote.pay",
  "POST /quote/order": "quote.pay",
  "POST /order/pay-amount-due": "order.pay",
  "GET /quote/requested-pdf/:quoteId": "quote.view",
  "POST /subscription/data/grant-access": "access.grant",
};

/** May a role call this route, by the two tables above? */
export const expectedMay = (role: RoleId, routeKey: string): boolean => {
  const action = ROUTE_ACTION[routeKey];
  return action !== undefined && ACTION_ROLES[action].split(" ").includes(ROLE_LETTER[role]);
};
