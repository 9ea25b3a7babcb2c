import { describe, expect, it } from "vitest";
import { banner } from "../../server/banner.ts";
import { DEMO } from "../../server/db/seed/demo.ts";

describe("the start banner", () => {
  it("prints the demo links, a sign-in per role and where mail goes", () => {
    const text = banner("http://localhost:4321", true);
    expect(text).toContain(`http://localhost:4321/p/order/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`);
    expect(text).toContain(`http://localhost:4321/public/report/${DEMO.reportHash}`);
    for (const role of ["Administrator", "Manager", "Viewer", "Provisioner", "Billing"])
      expect(text).toMatch(new RegExp(`^  ${role} +\\S+@`, "m"));
    expect(text).toContain("http://localhost:4321/dev/mailbox");
    expect(banner("http://localhost:4321", true, true)).toContain("sent through SMTP_URL");
  });

  it("prints only the address without demo data", () => {
    expect(banner("https://portal.example", false)).toBe("Portal ready on https://portal.example");
  });
});
