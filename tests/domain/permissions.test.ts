import { describe, expect, it } from "vitest";
import { roleMay, type Action } from "../../src/domain/permissions.ts";
import { ROLE_INFO, isRoleId, type RoleId } from "../../src/domain/roles.ts";
import { ACTION_ROLES, ROLE_LETTER } from "../support/expectedAccess.ts";

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

  it.each(Object.entries(ACTION_ROLES) as [Action, string][])(
    "lets exactly the right roles %s: %s",
    (action, who) => {
      const allowed = (Object.keys(ROLE_LETTER).map(Number) as RoleId[]).filter((r) => roleMay(r, action));
      expect(allowed.map((r) => ROLE_LETTER[r]).join(" ")).toBe(who);
    },
  );
});
