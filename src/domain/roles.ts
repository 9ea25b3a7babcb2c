/** Role ids of spec section 6, in one place. */
export const Role = {
  ADMINISTRATOR: 55100,
  MANAGER: 55200,
  VIEWER: 55300,
  PROVISIONER: 55400,
  BILLING: 55500,
} as const;
export type RoleId = (typeof Role)[keyof typeof Role];

/** Role names used by device-page controls, and display names. */
export const ROLE_INFO: Record<RoleId, { name: string; displayName: string }> = {
  [Role.ADMINISTRATOR]: { name: "ADMIN", displayName: "Administrator" },
  [Role.MANAGER]: { name: "MANAGER", displayName: "Manager" },
  [Role.VIEWER]: { name: "VIEWER", displayName: "Viewer" },
  [Role.PROVISIONER]: { name: "PROVISIONER", displayName: "Provisioner" },
  [Role.BILLING]: { name: "BILLING", displayName: "Billing" },
};

/** True for a known role id. */
export function isRoleId(id: number): id is RoleId {
  return id in ROLE_INFO;
}
