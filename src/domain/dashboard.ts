import type { Celsius, EpochSeconds } from "./brand.ts";
import { INTERNAL_TEMPERATURE_EXCLUDED_GROUP } from "./channelKey.ts";
import { batteryBand, isSensorMuted, isTemperatureKind, signalStrength, type BatteryBand } from "./device.ts";
import { DECIMALS, fromCelsius, type TemperatureScale } from "./temperature.ts";
import { explorePathOf } from "./explorePath.ts";

/*
 * The device dashboard of spec sections 2 and 9 as cards a page draws (the public painting
 * script and the signed-in React page render the same model): sections, reading order, at
 * most four readings a card, battery and signal, muted sensors last, hidden sensors apart.
 */

/** The channel fields the dashboard reads (src/api/devices.ts Channel). */
export interface DashChannel {
  channelKey: string;
  kind: string;
  name: string;
  value: number | null;
  conversion: { units: string | null };
}
/** src/api/devices.ts ChannelGroup, as far as the dashboard reads it. */
export interface DashGroup {
  channelKey: string;
  groupType: number;
  label: string | null;
  lastReceived: number | null;
  isHidden: boolean;
  channels: readonly DashChannel[];
}
export type SensorKind = "base" | "wireless" | "wired" | "other";
/** src/api/devices.ts Sensor, as far as the dashboard reads it. */
export interface DashSensor {
  macAddress: string;
  kind: SensorKind;
  sensorType: string | null;
  label: string | null;
  isHub: boolean;
  battery: number | null;
  pluggedIn: boolean;
  batteryAlertTriggered: boolean;
  signal: number | null;
  lastReceived: number | null;
  channelGroups: readonly DashGroup[];
}

/** Reading display order (spec section 9); other kinds follow in the device's order. */
export const READING_ORDER: readonly string[] = ["temperature", "humidity", "dew_point", "heat_index"];
/** A unit card shows at most this many readings. */
export const MAX_CARD_READINGS = 4;

export const SECTIONS: readonly { kind: SensorKind; title: string }[] = [
  { kind: "base", title: "Base Station" },
  { kind: "wireless", title: "Wireless Sensors" },
  { kind: "wired", title: "Wired Adapters" },
  { kind: "other", title: "Other Channel Groups" },
];

export interface Reading {
  channelKey: string;
  label: string;
  text: string;
}
export interface Battery {
  percent: number;
  band: BatteryBand;
  pluggedIn: boolean;
  /** A triggered battery alert shows red unless the unit is plugged in. */
  alert: boolean;
}
export interface Card {
  /** The channel group's key (device_sensor_groupType_groupIndex). */
  key: string;
  kind: SensorKind;
  title: string;
  sensorType: string | null;
  readings: Reading[];
  battery: Battery | null;
  signal: { dbm: number; strength: "Strong" | "Okay" } | null;
  /** No reading for over 7200 s: half opacity, sorted last. */
  muted: boolean;
  /** A muted card's "No reading for 5 hours" (or "No reading yet"); null while readings come, or with none to show. */
  silence: string | null;
  /**
   * A muted wired adapter also shows a warning icon. It is decorative: the card says it in
   * words ('No reading for 5 hours', or 'No readings'), so a screen reader hears it once.
   */
  warning: boolean;
  /** RAMAX layout: the wired adapter's port number, 1-based in the device's order. */
  port: number | null;
}
export interface Section {
  kind: SensorKind;
  title: string;
  cards: Card[];
}

const rank = (kind: string) => {
  const i = READING_ORDER.indexOf(kind);
  return i === -1 ? READING_ORDER.length : i;
};

/** The readings a card shows: temperature, humidity, dew point, heat index first, at most four. */
export function cardChannels<C extends DashChannel>(channels: readonly C[]): C[] {
  return channels
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c.kind) - rank(b.c.kind) || a.i - b.i)
    .slice(0, MAX_CARD_READINGS)
    .map(({ c }) => c);
}

const trim = (n: number) => String(Math.round(n * 100) / 100);

/**
 * A reading as text: temperatures in the preferred scale, always with the scale's decimals (C 2,
 * F 1: 5.00 °C beside 4.57 °C reads as the same precision), others up to 2 with their units.
 */
export function readingText(c: DashChannel, scale: TemperatureScale): string {
  if (c.value === null) return "No reading";
  if (isTemperatureKind(c.kind))
    return `${fromCelsius(c.value as Celsius, scale).toFixed(DECIMALS[scale])} °${scale}`;
  const units = c.conversion.units ?? "";
  if (units === "%" || units === "") return `${trim(c.value)}${units}`;
  return `${trim(c.value)} ${units}`;
}

/** A card's title: the group's label, else the sensor's label or type, else its address. */
export function groupTitle(sensor: DashSensor, group: DashGroup): string {
  return group.label || sensor.label || sensor.sensorType || sensor.macAddress;
}

function batteryOf(s: DashSensor): Battery | null {
  if (s.battery === null) return null;
  return {
    percent: s.battery,
    band: batteryBand(s.battery),
    pluggedIn: s.pluggedIn,
    alert: s.batteryAlertTriggered && !s.pluggedIn,
  };
}

function cardOf(
  s: DashSensor,
  g: DashGroup,
  scale: TemperatureScale,
  now: EpochSeconds,
  port: number | null,
): Card {
  const last = (g.lastReceived ?? s.lastReceived) as EpochSeconds | null;
  const muted = isSensorMuted(last, now);
  const wireless = s.kind === "wireless" && !s.isHub && s.signal !== null;
  const readings = cardChannels(g.channels).map((c) => ({
    channelKey: c.channelKey,
    label: c.name,
    text: readingText(c, scale),
  }));
  return {
    key: g.channelKey,
    kind: s.kind,
    title: groupTitle(s, g),
    sensorType: s.sensorType,
    readings,
    battery: batteryOf(s),
    signal: wireless ? { dbm: s.signal!, strength: signalStrength(s.signal!) } : null,
    muted,
    // A card without readings says "No readings" already.
    silence: muted && readings.length ? silenceText(last, now) : null,
    warning: muted && s.kind === "wired",
    port,
  };
}

/** Muted cards go last; the rest keep the device's order. */
const mutedLast = (cards: Card[]) => [...cards.filter((c) => !c.muted), ...cards.filter((c) => c.muted)];

/** The RAMAX panel names its base unit and wired adapters as the controller and its ports. */
const RAMAX_TITLES: Partial<Record<SensorKind, string>> = { base: "Controller", wired: "Ports" };

/**
 * The dashboard's sections (empty ones left out), titled for the RAMAX panel when `ramax`;
 * hidden groups are listed by hiddenGroups instead. A `standalone` device (a type not
 * beginning with RA, such as a WS2 Wi-Fi sensor) is no base station: its own unit is "Sensor".
 */
export function dashboard(
  sensors: readonly DashSensor[],
  scale: TemperatureScale,
  now: EpochSeconds,
  ramax = false,
  standalone = false,
): Section[] {
  let port = 0;
  const cards = sensors.flatMap((s) =>
    s.channelGroups
      .filter((g) => !g.isHidden)
      .map((g) => cardOf(s, g, scale, now, s.kind === "wired" ? ++port : null)),
  );
  return SECTIONS.map(({ kind, title }) => ({
    kind,
    title: (ramax && RAMAX_TITLES[kind]) || (standalone && kind === "base" && "Sensor") || title,
    cards: mutedLast(cards.filter((c) => c.kind === kind)),
  })).filter((section) => section.cards.length > 0);
}

/** The Hidden Sensors list: each hidden channel group with its title. */
export function hiddenGroups(sensors: readonly DashSensor[]): { key: string; title: string }[] {
  return sensors.flatMap((s) =>
    s.channelGroups.filter((g) => g.isHidden).map((g) => ({ key: g.channelKey, title: groupTitle(s, g) })),
  );
}

export interface TemperatureRow {
  key: string;
  title: string;
  reading: Reading;
  muted: boolean;
}

/**
 * The internal-temperature view: one row per shown unit with a temperature channel, its
 * first temperature. Channel groups of type 1300 are left out (spec section 9); the base
 * station's card still shows them.
 */
export function temperatureView(
  sensors: readonly DashSensor[],
  scale: TemperatureScale,
  now: EpochSeconds,
): TemperatureRow[] {
  return dashboard(sensors, scale, now).flatMap((section) =>
    section.cards.flatMap((card) => {
      const group = sensors.flatMap((s) => s.channelGroups).find((g) => g.channelKey === card.key);
      if (!group || group.groupType === INTERNAL_TEMPERATURE_EXCLUDED_GROUP) return [];
      const channel = group.channels.find((c) => c.kind === "temperature");
      if (!channel) return [];
      const reading = {
        channelKey: channel.channelKey,
        label: channel.name,
        text: readingText(channel, scale),
      };
      return [{ key: card.key, title: card.title, reading, muted: card.muted }];
    }),
  );
}

/** "Battery: Good (92%)", plugged in or with its alert. */
export function batteryText(b: Battery): string {
  return `Battery: ${b.band} (${b.percent}%)${b.pluggedIn ? ", plugged in" : ""}${b.alert ? " · Alert" : ""}`;
}
/** The icon of each battery band (islands/device/icons.ts names). */
export const BATTERY_ICON = { Low: "batteryLow", Ok: "batteryMedium", Good: "batteryFull" } as const;
/**
 * How long a muted unit has been silent, in whole hours up to two days and whole days beyond:
 * a greyed card alone did not say whether the sensor stopped this morning or last month.
 */
export const NO_READING_YET = "No reading yet";
export function silenceText(last: EpochSeconds | null, now: EpochSeconds): string {
  if (last === null) return NO_READING_YET;
  const hours = Math.floor((now - last) / 3600);
  if (hours < 48) return `No reading for ${hours} hour${hours === 1 ? "" : "s"}`;
  return `No reading for ${Math.floor(hours / 24)} days`;
}

/** The RAMAX device type has its own sensor panel layout. */
export const isRamax = (deviceType: string) => deviceType.trim().toUpperCase() === "RAMAX";

/** Where a reading leads in the signed-in portal (channel keys hold only path-safe characters). */
export const explorePath = explorePathOf;
