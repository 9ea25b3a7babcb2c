import { describe, expect, it } from "vitest";
import { rateLimitKey } from "../../server/http/clientIp.ts";

describe("rate-limit keys", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "::ffff:203.0.113.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"],
    ["2001:DB8:0001:0002::", "2001:db8:1:2::/64"],
    ["[2001:db8::1]", "2001:db8:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
  ])("keys %s as %s", (address, key) => {
    expect(rateLimitKey(address)).toBe(key);
  });

  it("gives every address of one IPv6 /64 the same allowance", () => {
    expect(
      new Set(["2001:db8:5:6::1", "2001:db8:5:6:a:b:c:d", "2001:db8:5:6::ffff"].map(rateLimitKey)).size,
    ).toBe(1);
  });
});
