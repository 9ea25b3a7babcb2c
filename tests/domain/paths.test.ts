import { describe, expect, it } from "vitest";
import { APP_ROUTES, appPath } from "../../src/domain/appPaths.ts";
import { explorePathOf } from "../../src/domain/explorePath.ts";
import {
  PATHS,
  payAsGuestPath,
  publicDevicePath,
  publicOrderPath,
  publicQuotePath,
  publicReportPath,
  samlLoginPath,
  withNext,
} from "../../src/domain/paths.ts";

describe("the portal's public addresses", () => {
  it.each([
    [publicOrderPath(5003, "abc_DEF-1"), "/p/order/ORD-5003-abc_DEF-1"],
    [publicQuotePath(1001), "/p/quote/QUO-1001"],
    [payAsGuestPath("order", "ORD-5003-abc"), "/p/order/pay-as-guest/ORD-5003-abc"],
    [payAsGuestPath("quote", "a b"), "/p/quote/pay-as-guest/a%20b"],
    [publicDevicePath("h4sh"), "/p/device/h4sh"],
    [publicDevicePath("h4sh", false), "/public/device/h4sh"],
    [publicReportPath("r/1"), "/public/report/r%2F1"],
    [samlLoginPath("northwind"), "/auth/saml/login/northwind"],
    [withNext(PATHS.gateway, "/s/orders/list?x=1"), "/gateway?next=%2Fs%2Forders%2Flist%3Fx%3D1"],
  ])("writes %s", (path, expected) => {
    expect(path).toBe(expected);
  });

  it("keeps the welcome page one address for the public pages and the app's router", () => {
    expect(APP_ROUTES.home).toBe(PATHS.welcome);
  });

  it("names the spec's fixed addresses", () => {
    expect(PATHS).toMatchObject({
      welcome: "/user/welcome",
      gateway: "/gateway",
      resetRequest: "/gateway/request-password-reset",
      terms: "/terms",
      termsAcknowledge: "/terms/acknowledge",
      orderSearch: "/p/order-quote/search",
    });
  });

  it.each([
    [appPath("orderDetails", { id: 5003 }), "/s/order/details/5003"],
    [appPath("quoteDetails", { number: "QUO-1001" }), "/s/quotes/details/QUO-1001"],
    [appPath("deviceDetails", { id: 7 }), "/s/devices/7"],
    [
      appPath("explore", { channelKey: "00:1A:2B_W1A001_1200_0_1" }),
      "/s/sensor-data/explore/00:1A:2B_W1A001_1200_0_1",
    ],
    [appPath("link", { linkId: "a/b" }), "/links/a%2Fb"],
    [appPath("tags"), "/s/guidance/tags"],
    [explorePathOf("00:1A:2B_W1A001_1200_0_1"), "/s/sensor-data/explore/00:1A:2B_W1A001_1200_0_1"],
    [appPath("home"), "/user/welcome"],
  ])("writes the app address %s", (path, expected) => {
    expect(path).toBe(expected);
  });
});
