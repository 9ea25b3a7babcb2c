// The shape of the demo devices (deviceSpecs.ts) and the channels their sensors carry.

export interface ChannelSpec {
  type: number;
  kind: string;
  name: string;
  value: number;
  units: string;
}
export interface SensorSpec {
  mac: string;
  kind: "base" | "wireless" | "wired" | "other";
  sensorType: string;
  label: string;
  groupType: number;
  battery?: number;
  signal?: number;
  pluggedIn?: boolean;
  isHub?: boolean;
  batteryAlert?: boolean;
  hidden?: boolean;
  staleHours?: number;
  channels: ChannelSpec[];
}
export interface DeviceSpec {
  name: string;
  type: string;
  deviceType: string;
  mac: string;
  hash: string | null;
  model: string;
  location: string;
  geocode: { lat: number; lng: number } | null;
  firmware: string;
  latestFirmware: string;
  warrantyDays: number;
  linked: boolean;
  https: boolean;
  port: number | null;
  suspended?: boolean;
  subscription: "acme" | "northwind";
  tags: string[];
  sensors: SensorSpec[];
}

/** A channel of one kind, by the spec's channel type ids. */
const channel =
  (type: number, kind: string, name: string, units: string) =>
  (value: number): ChannelSpec => ({ type, kind, name, value, units });

export const temp = channel(1, "temperature", "Temperature", "C");
export const hum = channel(2, "humidity", "Humidity", "%");
export const dew = channel(3, "dew_point", "Dew Point", "C");
export const heat = channel(4, "heat_index", "Heat Index", "C");
export const volt = channel(5, "voltage", "Voltage", "V");
export const analog = channel(6, "computed_analog", "Flow", "L/min");
export const co2 = channel(8, "co2", "CO2", "ppm");
/** A temperature/humidity sensor's four channels. */
export const TH = (t: number, h: number) => [temp(t), hum(h), dew(t - 8), heat(t + 0.6)];
