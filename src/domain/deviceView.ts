import type { EpochSeconds } from "./brand.ts";
import { formatDate } from "./dayText.ts";
import type { Badge } from "./badges.ts";
import {
  formatUptime,
  isFirmwareUpToDate,
  nextPushExpected,
  pushStatusLabel,
  type DeviceStatus,
} from "./device.ts";
import { isKnownTimezone } from "./timezones.ts";

/*
 * The device info panel of spec section 2 as rows a page draws: the public page's painting
 * script and the signed-in page's React panel both render these, so each rule lives once.
 * Intl only (no Temporal): the public page paints with a few kilobytes of script.
 */

/** The device fields the panel reads (src/api/devices.ts DeviceGeneral has them all). */
export interface InfoDevice {
  uptime: number;
  pushStatus: number;
  pushInterval: number;
  isLinkConnected: boolean;
  linkId: number | null;
  linkName: string | null;
  ethIp: string | null;
  wlanIp: string | null;
  wifiName: string | null;
  isHttps: boolean;
  httpPort: number | null;
  macAddress: string;
  serialnumber: string;
  firmware: string | null;
  latestFirmware: string | null;
  model: string | null;
  warrantyEndDate: number | null;
  lastMessageTimestamp: number | null;
}

export const NOT_CONNECTED = "Not connected to a Link";
/** The device page's error view (spec sections 2 and 8). */
export const DEVICE_ERROR_TITLE = "Oops! Something went wrong.";
export const DEVICE_LOAD_FAILED = "Unexpected error loading device";
export const NO_DEVICE_ID = "No device ID provided.";

/** A part of a row's value: text, a link, the open-interface action or a status icon. */
export type InfoPart =
  | { kind: "text"; text: string }
  | { kind: "link"; text: string; href: string }
  | { kind: "open"; text: string; href: string }
  | { kind: "icon"; icon: "upToDate" | "updateAvailable" | "warranty"; label: string }
  | { kind: "badge"; text: "Pushing" | "Not Pushing" };

export interface InfoRow {
  /** Stable name for pages and tests (data-row). */
  id: string;
  label: string;
  parts: InfoPart[];
}

/** The header's status (src/domain/device.ts deviceStatus), worded as the device list words it. */
export const STATUS_BADGE: Record<DeviceStatus, Badge> = {
  pushing: { label: "Pushing", tone: "ok" },
  late: { label: "Late", tone: "warn" },
  offline: { label: "Offline", tone: "bad" },
};

/** 'MMMM D, YYYY, h:mm A' (e.g. "November 5, 2026, 3:07 PM") in the zone, UTC when unknown. */
export function formatPushTime(at: EpochSeconds, zone = "UTC"): string {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: isKnownTimezone(zone) ? zone : "UTC",
    month: "long",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    hour12: true,
  }).formatToParts(new Date(at * 1000));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("month")} ${part("day")}, ${part("year")}, ${part("hour")}:${part("minute")} ${part("dayPeriod").toUpperCase()}`;
}

/** The device's web interface: http or https, the port only when one is set, IPv6 in brackets. */
export function openInterfaceUrl(ip: string, isHttps: boolean, port: number | null): string {
  const host = ip.includes(":") ? `[${ip}]` : ip;
  return `${isHttps ? "https" : "http"}://${host}${port ? `:${port}` : ""}/`;
}

/** The warranty icon shows only while the warranty end is in the future. */
export function warrantyActive(end: number | null, now: EpochSeconds): boolean {
  return end !== null && end > now;
}

const text = (t: string): InfoPart => ({ kind: "text", text: t });

function linkRow(d: InfoDevice): InfoPart[] {
  if (!d.isLinkConnected) return [text(NOT_CONNECTED)];
  if (!d.linkName) return [text("Connected to a Link")];
  // A public page names the link but does not link to it (the link page is signed-in).
  if (d.linkId === null) return [text(`Connected to ${d.linkName}`)];
  return [text("Connected to "), { kind: "link", text: d.linkName, href: `/links/${d.linkId}` }];
}

function ipRow(ip: string, d: InfoDevice, extra?: string): InfoPart[] {
  const parts: InfoPart[] = [text(extra ? `${ip} (${extra})` : ip)];
  parts.push({ kind: "open", text: "Open interface", href: openInterfaceUrl(ip, d.isHttps, d.httpPort) });
  return parts;
}

function firmwareRow(d: InfoDevice): InfoPart[] {
  if (!d.firmware) return [text("Unknown")];
  const icon: InfoPart = isFirmwareUpToDate(d.firmware, d.latestFirmware)
    ? { kind: "icon", icon: "upToDate", label: "Firmware is up to date" }
    : {
        kind: "icon",
        icon: "updateAvailable",
        label: `Firmware update available: ${d.latestFirmware ?? "newer version"}`,
      };
  return [text(d.firmware), icon];
}

const pushTime = (at: number | null, zone: string) =>
  at === null ? "Never" : formatPushTime(at as EpochSeconds, zone);

/**
 * The info panel's rows in the spec's order. Rows for what the answer leaves out (LAN
 * addresses on a public page, a device without Wi-Fi) are not drawn; the warranty row only
 * while the warranty lasts.
 */
export function infoRows(d: InfoDevice, zone: string, now: EpochSeconds): InfoRow[] {
  const rows: InfoRow[] = [
    { id: "uptime", label: "Uptime", parts: [text(formatUptime(d.uptime))] },
    { id: "push", label: "Push Status", parts: [{ kind: "badge", text: pushStatusLabel(d.pushStatus) }] },
    { id: "link", label: "Link", parts: linkRow(d) },
  ];
  if (d.ethIp) rows.push({ id: "eth", label: "Ethernet IP", parts: ipRow(d.ethIp, d) });
  if (d.wlanIp)
    rows.push({ id: "wlan", label: "Wi-Fi IP", parts: ipRow(d.wlanIp, d, d.wifiName ?? undefined) });
  rows.push(
    { id: "mac", label: "MAC Address", parts: [text(d.macAddress)] },
    { id: "serial", label: "Serial Number", parts: [text(d.serialnumber)] },
    { id: "firmware", label: "Firmware", parts: firmwareRow(d) },
    { id: "model", label: "Model", parts: [text(d.model ?? "Unknown")] },
  );
  if (warrantyActive(d.warrantyEndDate, now)) {
    const until = formatDate(d.warrantyEndDate as EpochSeconds, zone);
    rows.push({
      id: "warranty",
      label: "Warranty",
      parts: [{ kind: "icon", icon: "warranty", label: "Under warranty" }, text(`Until ${until}`)],
    });
  }
  const next = nextPushExpected(d.lastMessageTimestamp as EpochSeconds | null, d.pushInterval);
  rows.push(
    { id: "lastPush", label: "Last Push Received", parts: [text(pushTime(d.lastMessageTimestamp, zone))] },
    { id: "nextPush", label: "Next Push Expected", parts: [text(pushTime(next, zone))] },
  );
  return rows;
}
