import { describe, expect, it } from "vitest";
import { roleMay, type Action } from "../../src/domain/permissions.ts";
import { Role, ROLE_INFO, isRoleId } from "../../src/domain/roles.ts";

describe("roles and permissions", () => {
  it("keeps the spec's role ids and names", () => {
    expect(Object.entries(ROLE_INFO).map(([id, r]) => [Number(id), r.displayName])).toEqual([
      [55100, "Administrator"],
      [55200, "Manager"],
      [55300, "Viewer"],
      [55400, "Provisioner"],
      [55500, "Billing"],
    ]);
    expect(isRoleId(55300)).toBe(true);
    expect(isRoleId(55600)).toBe(false);
  });

  it.each<[Action, number[]]>([
    ["device.view", [Role.ADMINISTRATOR, Role.MANAGER, Role.VIEWER, Role.PROVISIONER, Role.BILLING]],
    ["device.edit", [Role.ADMINISTRATOR, Role.MANAGER]],
    ["publicLink.manage", [Role.ADMINISTRATOR, Role.MANAGER]],
    ["sensor.edit", [Role.ADMINISTRATOR, Role.MANAGER, Role.PROVISIONER]],
    ["quote.pay", [Role.ADMINISTRATOR, Role.MANAGER, Role.BILLING]],
    ["order.pay", [Role.ADMINISTRATOR, Role.MANAGER, Role.BILLING]],
    ["access.grant", [Role.ADMINISTRATOR]],
    ["report.view", [Role.ADMINISTRATOR, Role.MANAGER, Role.VIEWER, Role.PROVISIONER, Role.BILLING]],
    ["report.edit", [Role.ADMINISTRATOR, Role.MANAGER]],
  ])("lets exactly the right roles %s", (action, allowed) => {
    const who = Object.values(Role).filter((r) => roleMay(r, action));
    expect(who).toEqual(allowed);
  });
});
