import { describe, expect, it } from "vitest";
import { epochSeconds } from "../../src/domain/brand.ts";
import { formatDateTime } from "../../src/domain/dates.ts";
import {
  formatPushTime,
  infoRows,
  NOT_CONNECTED,
  openInterfaceUrl,
  warrantyActive,
  type InfoDevice,
  type InfoRow,
} from "../../src/domain/deviceView.ts";

const NOW = epochSeconds(Date.UTC(2026, 10, 22, 12, 0, 0) / 1000);
const DEVICE: InfoDevice = {
  uptime: 3 * 86400 + 3723,
  pushStatus: 1,
  pushInterval: 600,
  isLinkConnected: true,
  linkId: 7,
  linkName: "Lab Link",
  ethIp: "192.168.10.20",
  wlanIp: "10.0.0.40",
  wifiName: "LabNet",
  isHttps: true,
  httpPort: 8443,
  macAddress: "00:1A:2B:3C:4D:01",
  serialnumber: "SN-RA12-100200",
  firmware: "4.2.1",
  latestFirmware: "4.2.1",
  model: "RA12 Base Station",
  warrantyEndDate: NOW + 86400,
  lastMessageTimestamp: NOW - 240,
};

const row = (rows: InfoRow[], id: string) => rows.find((r) => r.id === id);
const texts = (r: InfoRow | undefined) => r?.parts.map((p) => ("text" in p ? p.text : p.label)).join("");

describe("device info panel", () => {
  it("formats push times as 'MMMM D, YYYY, h:mm A' in the zone, like the Temporal formatter", () => {
    for (const at of [NOW, epochSeconds(0), epochSeconds(NOW + 13 * 3600 + 420), epochSeconds(1_780_000_000)])
      for (const zone of ["UTC", "America/New_York", "Asia/Kolkata", "Not/AZone"])
        expect(formatPushTime(at, zone)).toBe(formatDateTime(at, zone));
    expect(formatPushTime(epochSeconds(Date.UTC(2026, 10, 5, 15, 7) / 1000))).toBe(
      "November 5, 2026, 3:07 PM",
    );
    expect(formatPushTime(epochSeconds(Date.UTC(2026, 10, 5, 0, 5) / 1000))).toBe(
      "November 5, 2026, 12:05 AM",
    );
  });

  it.each([
    ["192.168.1.5", false, null, "http://192.168.1.5/"],
    ["192.168.1.5", true, null, "https://192.168.1.5/"],
    ["192.168.1.5", true, 8443, "https://192.168.1.5:8443/"],
    ["fe80::1", false, 80, "http://[fe80::1]:80/"],
  ])("opens the interface of %s (https %s, port %s) at %s", (ip, https, port, url) => {
    expect(openInterfaceUrl(ip, https, port)).toBe(url);
  });

  it("shows the warranty only while its end is in the future", () => {
    expect(warrantyActive(NOW + 1, NOW)).toBe(true);
    expect(warrantyActive(NOW, NOW)).toBe(false);
    expect(warrantyActive(null, NOW)).toBe(false);
    expect(row(infoRows({ ...DEVICE, warrantyEndDate: NOW - 1 }, "UTC", NOW), "warranty")).toBeUndefined();
    expect(texts(row(infoRows(DEVICE, "UTC", NOW), "warranty"))).toBe("Under warrantyUntil Nov 23, 2026");
  });

  it("lists the rows in the spec's order with their values", () => {
    const rows = infoRows(DEVICE, "America/New_York", NOW);
    expect(rows.map((r) => r.label)).toEqual([
      "Uptime",
      "Push Status",
      "Link",
      "Ethernet IP",
      "Wi-Fi IP",
      "MAC Address",
      "Serial Number",
      "Firmware",
      "Model",
      "Warranty",
      "Last Push Received",
      "Next Push Expected",
    ]);
    expect(texts(row(rows, "uptime"))).toBe("3 days 01:02:03");
    expect(texts(row(rows, "push"))).toBe("Pushing");
    expect(row(rows, "link")?.parts).toEqual([
      { kind: "text", text: "Connected to " },
      { kind: "link", text: "Lab Link", href: "/links/7" },
    ]);
    expect(row(rows, "eth")?.parts[1]).toEqual({
      kind: "open",
      text: "Open interface",
      href: "https://192.168.10.20:8443/",
    });
    expect(texts(row(rows, "wlan"))).toMatch(/^10\.0\.0\.40 \(LabNet\)/);
    expect(texts(row(rows, "lastPush"))).toBe("November 22, 2026, 6:56 AM");
    expect(texts(row(rows, "nextPush"))).toBe("November 22, 2026, 7:06 AM");
  });

  it("says Not Pushing, Not connected to a Link and Never where that is so", () => {
    const rows = infoRows(
      {
        ...DEVICE,
        pushStatus: 0,
        isLinkConnected: false,
        linkId: null,
        lastMessageTimestamp: null,
        uptime: 59,
      },
      "UTC",
      NOW,
    );
    expect(texts(row(rows, "uptime"))).toBe("00:00:59");
    expect(texts(row(rows, "push"))).toBe("Not Pushing");
    expect(texts(row(rows, "link"))).toBe(NOT_CONNECTED);
    expect(texts(row(rows, "lastPush"))).toBe("Never");
    expect(texts(row(rows, "nextPush"))).toBe("Never");
  });

  it("marks firmware up to date or with an update available", () => {
    const icon = (d: InfoDevice) => row(infoRows(d, "UTC", NOW), "firmware")?.parts[1];
    expect(icon(DEVICE)).toMatchObject({ icon: "upToDate", label: "Firmware is up to date" });
    expect(icon({ ...DEVICE, firmware: "3.9.0", latestFirmware: "4.0.2" })).toMatchObject({
      icon: "updateAvailable",
      label: "Firmware update available: 4.0.2",
    });
  });

  it("leaves out what a public answer withholds: LAN addresses and the link page, not the link's name", () => {
    const rows = infoRows(
      { ...DEVICE, ethIp: null, wlanIp: null, wifiName: null, linkId: null, httpPort: null },
      "UTC",
      NOW,
    );
    expect(row(rows, "eth")).toBeUndefined();
    expect(row(rows, "wlan")).toBeUndefined();
    expect(row(rows, "link")?.parts).toEqual([{ kind: "text", text: "Connected to Lab Link" }]);
  });

  it("says 'Connected to a Link' when the link has no name to show", () => {
    const rows = infoRows({ ...DEVICE, linkId: null, linkName: null }, "UTC", NOW);
    expect(texts(row(rows, "link"))).toBe("Connected to a Link");
  });
});
