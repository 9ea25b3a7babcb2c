import type { EpochSeconds } from "./brand.ts";
import type { TemperatureScale } from "./temperature.ts";

export type BatteryBand = "Low" | "Ok" | "Good";

/** Battery: 30 or below Low, 31 to 60 Ok, above 60 Good. */
export function batteryBand(percent: number): BatteryBand {
  if (percent <= 30) return "Low";
  if (percent <= 60) return "Ok";
  return "Good";
}

/** Signal strength: Strong at -80 dBm or above, else Okay. */
export function signalStrength(dbm: number): "Strong" | "Okay" {
  return dbm >= -80 ? "Strong" : "Okay";
}

export const MUTED_AFTER_SECONDS = 7200;

/** A sensor is muted (half opacity, sorted last) when its last reading is older than 2 hours. */
export function isSensorMuted(lastReceived: EpochSeconds | null, now: EpochSeconds): boolean {
  return lastReceived === null || now - lastReceived > MUTED_AFTER_SECONDS;
}

/** Firmware is up to date when its version digits and dots match the latest. */
export function isFirmwareUpToDate(current: string | null, latest: string | null): boolean {
  const digits = (v: string | null) => (v ?? "").replace(/[^0-9.]/g, "");
  return digits(current) !== "" && digits(current) === digits(latest);
}

/** Uptime as 'N days hh:mm:ss' or 'hh:mm:ss' under one day. */
export function formatUptime(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const days = Math.floor(s / 86400);
  const pad = (n: number) => String(n).padStart(2, "0");
  const clock = `${pad(Math.floor((s % 86400) / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return days > 0 ? `${days} ${days === 1 ? "day" : "days"} ${clock}` : clock;
}

/** Push status: Pushing when the value is 1, else Not Pushing. */
export function pushStatusLabel(value: number | null): "Pushing" | "Not Pushing" {
  return value === 1 ? "Pushing" : "Not Pushing";
}

/** Next push expected = last push plus push interval. */
export function nextPushExpected(
  lastPush: EpochSeconds | null,
  intervalSeconds: number | null,
): EpochSeconds | null {
  return lastPush && intervalSeconds ? ((lastPush + intervalSeconds) as EpochSeconds) : null;
}

/** Devices whose type does not begin with RA are shown on /public/device/{hash}. */
export function usesPublicDeviceRoute(deviceType: string): boolean {
  return !deviceType.toUpperCase().startsWith("RA");
}

/** The public device page of a device: /p/device/{hash}, or /public/device/{hash} by type. */
export function publicDevicePath(deviceType: string, hash: string): string {
  return `${usesPublicDeviceRoute(deviceType) ? "/public/device" : "/p/device"}/${hash}`;
}

export type DeviceStatus = "pushing" | "late" | "offline";
/** A push may come this many intervals after the last one and still count as on time. */
export const ON_TIME_INTERVALS = 1.5;
/** Beyond this many intervals without a push, a device counts as offline. */
export const OFFLINE_INTERVALS = 3;

/**
 * The device list's status dot: pushing while the last push is at most 1.5 intervals old
 * (some jitter is normal), late up to 3 intervals, offline after that or when it never pushed.
 */
export function deviceStatus(
  lastPush: EpochSeconds | null,
  intervalSeconds: number,
  now: EpochSeconds,
): DeviceStatus {
  if (lastPush === null) return "offline";
  const age = now - lastPush;
  const interval = Math.max(60, intervalSeconds);
  if (age <= interval * ON_TIME_INTERVALS) return "pushing";
  return age <= interval * OFFLINE_INTERVALS ? "late" : "offline";
}

/** Channel kinds whose readings are temperatures (stored in Celsius, shown in the chosen scale). */
export const TEMPERATURE_KINDS: readonly string[] = ["temperature", "dew_point", "heat_index"];

/** Adjustments are editable only for temperature, humidity, heat index, dew point, voltage and computed analog channels. */
export const ADJUSTABLE_KINDS: readonly string[] = [
  "temperature",
  "humidity",
  "heat_index",
  "dew_point",
  "voltage",
  "computed_analog",
];
export const isAdjustableKind = (kind: string) => ADJUSTABLE_KINDS.includes(kind);
export const isTemperatureKind = (kind: string) => TEMPERATURE_KINDS.includes(kind);
/** The unit a channel's values are shown in: the chosen scale for temperatures, else its own ('' for none). */
export const unitIn = (kind: string, units: string | null, scale: TemperatureScale): string =>
  isTemperatureKind(kind) ? `°${scale}` : (units ?? "");
/** An adjustment is an offset of at most this much (in the channel's stored unit, Celsius for temperatures). */
export const MAX_ADJUSTMENT = 100;
