import { describe, expect, it } from "vitest";
import type { Auth } from "../../server/data/auth.ts";
import { authorize } from "../../server/http/auth.ts";
import { ApiError } from "../../server/core/errors.ts";
import { Role } from "../../src/domain/roles.ts";

const as = (roleId: Auth["roleId"]) => ({ roleId, subscription: { id: 7 } }) as Auth;
const statusOf = (fn: () => void) => {
  try {
    fn();
    return 200;
  } catch (e) {
    return e instanceof ApiError ? e.status : 500;
  }
};

describe("authorize", () => {
  it("allows a role's action on the active subscription's resource", () => {
    expect(statusOf(() => authorize(as(Role.MANAGER), "device.edit", { subscriptionId: 7 }))).toBe(200);
  });

  it("answers 403 when the role may not act", () => {
    expect(statusOf(() => authorize(as(Role.VIEWER), "device.edit", { subscriptionId: 7 }))).toBe(403);
  });

  it("answers 404 for another subscription's resource, whatever the role", () => {
    expect(statusOf(() => authorize(as(Role.ADMINISTRATOR), "device.view", { subscriptionId: 8 }))).toBe(404);
    expect(statusOf(() => authorize(as(Role.ADMINISTRATOR), "device.view", { subscriptionId: null }))).toBe(
      404,
    );
  });
});
