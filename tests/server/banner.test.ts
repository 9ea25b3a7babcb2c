import { describe, expect, it } from "vitest";
import { banner, type BannerInput } from "../../server/banner.ts";
import { DEMO } from "../../server/seed/demo.ts";

const LOCAL: BannerInput = {
  origin: "http://localhost:4321",
  demo: "local",
  smtp: false,
  mailbox: "http://localhost:4321",
};

describe("the start banner", () => {
  it("prints the demo links, a sign-in per role and where mail goes", () => {
    const text = banner(LOCAL);
    expect(text).toContain(`http://localhost:4321/p/order/ORD-${DEMO.orderId}-${DEMO.orderValidationId}`);
    expect(text).toContain(`http://localhost:4321/public/report/${DEMO.reportHash}`);
    for (const role of ["Administrator", "Manager", "Viewer", "Provisioner", "Billing"])
      expect(text).toMatch(new RegExp(`^  ${role} +\\S+@`, "m"));
    expect(text).toContain("http://localhost:4321/dev/mailbox (this computer only)");
    expect(banner({ ...LOCAL, smtp: true })).toContain("sent through SMTP_URL");
  });

  it("says whether the demo answers only this computer or is shared", () => {
    expect(banner(LOCAL)).toContain("Demo mode answers only this computer (DEMO=1 shares it");
    expect(banner({ ...LOCAL, demo: "shared" })).toContain("Demo mode is shared (DEMO=1)");
  });

  it("points a shared demo's mailbox at this computer, never at the public address", () => {
    const shared = banner({ ...LOCAL, origin: "https://demo.example", demo: "shared" });
    expect(shared).toContain("https://demo.example/p/order/");
    expect(shared).toContain("http://localhost:4321/dev/mailbox");
    expect(shared).not.toContain("https://demo.example/dev/mailbox");
    expect(banner({ ...LOCAL, mailbox: null })).toContain("set SMTP_URL, or listen on a loopback HOST");
  });

  it("prints only the address without demo data", () => {
    expect(banner({ ...LOCAL, origin: "https://portal.example", demo: "off" })).toBe(
      "Portal ready on https://portal.example",
    );
  });
});
