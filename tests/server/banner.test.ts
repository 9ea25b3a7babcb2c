import { describe, expect, it } from "vitest";
import { banner, type BannerInput, historyReporter } from "../../server/banner.ts";
import { DEMO } from "../../server/seed/demo.ts";

const LOCAL: BannerInput = {
  origin: "http://localhost:4321",
  demo: "local",
  smtp: false,
  mailbox: "http://localhost:4321",
  requestLog: false,
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

  it("says whether request lines follow it, so the links stay on screen in the local demo", () => {
    expect(banner(LOCAL)).toMatch(/Request log: off, so these links stay on screen \(LOG_REQUESTS=1/);
    expect(banner({ ...LOCAL, requestLog: true })).toContain("LOG_REQUESTS=0 turns it off");
  });

  it("reports the history fill on one updating line on a terminal and four lines elsewhere", () => {
    const steps = Array.from({ length: 12 }, (_, i) => ({
      channel: Math.floor(i / 4) + 1,
      channels: 3,
      day: (i % 4) + 1,
      days: 4,
      done: i + 1,
      total: 12,
    }));
    const tty: string[] = [];
    const terminal = historyReporter({ isTTY: true, write: (t) => tty.push(t) });
    steps.forEach((p) => terminal.progress(p));
    terminal.done(365);
    expect(tty.join("").split("\n")).toHaveLength(2);
    expect(tty.every((t) => t.startsWith("\r"))).toBe(true);
    const piped: string[] = [];
    const pipe = historyReporter({ write: (t) => piped.push(t) });
    steps.forEach((p) => pipe.progress(p));
    pipe.done(365);
    expect(piped).toEqual([
      "Demo report history: sensor channel 1 of 3, day 1 of 4 (8% in all)\n",
      "Demo report history: sensor channel 1 of 3, day 3 of 4 (25% in all)\n",
      "Demo report history: sensor channel 2 of 3, day 2 of 4 (50% in all)\n",
      "Demo report history: sensor channel 3 of 3, day 1 of 4 (75% in all)\n",
      "Demo report history complete: minute readings of the report's sensors back 365 days.\n",
    ]);
  });
});
