import { Role, type RoleId } from "./roles.ts";

/** Everything a signed-in person may be allowed to do; checked on the server, mirrored in the UI. */
export type Action =
  | "device.view"
  | "device.edit"
  | "device.download"
  | "publicLink.manage"
  | "tag.create"
  | "tag.apply"
  | "sensor.edit"
  | "quote.view"
  | "quote.pay"
  | "order.view"
  | "order.pay"
  | "share.link"
  | "access.grant"
  | "account.view"
  | "account.settings"
  | "report.view"
  | "report.edit"
  | "alert.view"
  | "alert.edit"
  | "alert.acknowledge"
  | "audit.view"
  | "chart.comment";

const ALL: readonly RoleId[] = Object.values(Role);
const EDITORS: readonly RoleId[] = [Role.ADMINISTRATOR, Role.MANAGER];
const BUYERS: readonly RoleId[] = [Role.ADMINISTRATOR, Role.MANAGER, Role.BILLING];

/** Who may do what; roles the spec leaves open follow docs/decisions.md. */
const MATRIX: Record<Action, readonly RoleId[]> = {
  "device.view": ALL,
  "device.edit": EDITORS,
  "device.download": ALL,
  "publicLink.manage": EDITORS,
  "tag.create": EDITORS,
  "tag.apply": EDITORS,
  "sensor.edit": [...EDITORS, Role.PROVISIONER],
  "quote.view": ALL,
  "quote.pay": BUYERS,
  "order.view": ALL,
  "order.pay": BUYERS,
  "share.link": BUYERS,
  "access.grant": [Role.ADMINISTRATOR],
  "account.view": ALL,
  "account.settings": ALL,
  "report.view": ALL,
  "report.edit": EDITORS,
  "alert.view": ALL,
  "alert.edit": EDITORS,
  // The people who act on an alarm: not Viewers (read-only) nor Billing.
  "alert.acknowledge": [...EDITORS, Role.PROVISIONER],
  // The trail names every person's actions: for those who answer for the subscription.
  "audit.view": [Role.ADMINISTRATOR],
  // Comments pinned on the charts are the owner's annotations, public on a shared report (issue 36).
  "chart.comment": EDITORS,
};

/** May a person holding this role do the action (in their active subscription)? */
export function roleMay(role: RoleId, action: Action): boolean {
  return MATRIX[action].includes(role);
}
