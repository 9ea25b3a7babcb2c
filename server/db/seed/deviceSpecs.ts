import { DEMO } from "./demo.ts";

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

const temp = (value: number): ChannelSpec => ({
  type: 1,
  kind: "temperature",
  name: "Temperature",
  value,
  units: "C",
});
const hum = (value: number): ChannelSpec => ({
  type: 2,
  kind: "humidity",
  name: "Humidity",
  value,
  units: "%",
});
const dew = (value: number): ChannelSpec => ({
  type: 3,
  kind: "dew_point",
  name: "Dew Point",
  value,
  units: "C",
});
const heat = (value: number): ChannelSpec => ({
  type: 4,
  kind: "heat_index",
  name: "Heat Index",
  value,
  units: "C",
});
const volt = (value: number): ChannelSpec => ({
  type: 5,
  kind: "voltage",
  name: "Voltage",
  value,
  units: "V",
});
const analog = (value: number): ChannelSpec => ({
  type: 6,
  kind: "computed_analog",
  name: "Flow",
  value,
  units: "L/min",
});
const co2 = (value: number): ChannelSpec => ({ type: 8, kind: "co2", name: "CO2", value, units: "ppm" });
const TH = (t: number, h: number) => [temp(t), hum(h), dew(t - 8), heat(t + 0.6)];

/** Group types: 1300 base-station internal, 1200 wireless, 1100 wired adapter, 1400 other. */
export const DEVICE_SPECS: DeviceSpec[] = [
  {
    name: "Lab Base Station",
    type: "RA12",
    deviceType: "RA12",
    mac: "00:1A:2B:3C:4D:01",
    hash: DEMO.raDeviceHash,
    model: "RA12 Base Station",
    location: "Building 2, Lab 204",
    geocode: { lat: 42.3601, lng: -71.0589 },
    firmware: "4.2.1",
    latestFirmware: "4.2.1",
    warrantyDays: 400,
    linked: true,
    https: true,
    port: 8443,
    subscription: "acme",
    tags: ["Lab", "Critical"],
    sensors: [
      {
        mac: "BASE01",
        kind: "base",
        sensorType: "Internal",
        label: "Base Station",
        groupType: 1300,
        isHub: true,
        pluggedIn: true,
        channels: [temp(23.4), hum(41)],
      },
      {
        mac: "W1A001",
        kind: "wireless",
        sensorType: "Temp/Humidity",
        label: "Cold Room",
        groupType: 1200,
        battery: 92,
        signal: -58,
        channels: TH(4.2, 78),
      },
      {
        mac: "W1A002",
        kind: "wireless",
        sensorType: "Temp/Humidity",
        label: "Incubator",
        groupType: 1200,
        battery: 45,
        signal: -79,
        channels: TH(37.1, 55),
      },
      {
        mac: "W1A003",
        kind: "wireless",
        sensorType: "Temperature",
        label: "Freezer A",
        groupType: 1200,
        battery: 12,
        signal: -91,
        batteryAlert: true,
        channels: [temp(-19.6)],
      },
      {
        mac: "W1A004",
        kind: "wireless",
        sensorType: "Temperature",
        label: "Freezer B (stale)",
        groupType: 1200,
        battery: 61,
        signal: -85,
        staleHours: 5,
        channels: [temp(-21.3)],
      },
      {
        mac: "W1A005",
        kind: "wireless",
        sensorType: "Temp/Humidity",
        label: "Storage Closet",
        groupType: 1200,
        battery: 30,
        signal: -80,
        hidden: true,
        channels: TH(20.5, 35),
      },
      {
        mac: "W1A006",
        kind: "wireless",
        sensorType: "Temperature",
        label: "Mains Probe",
        groupType: 1200,
        battery: 20,
        pluggedIn: true,
        batteryAlert: true,
        signal: -66,
        channels: [temp(21.9)],
      },
    ],
  },
  {
    name: "Warehouse RAMAX",
    type: "RAMAX",
    deviceType: "RAMAX",
    mac: "00:1A:2B:3C:4D:02",
    hash: DEMO.ramaxDeviceHash,
    model: "RAMAX Controller",
    location: "Warehouse 1",
    geocode: { lat: 41.8781, lng: -87.6298 },
    firmware: "3.9.0",
    latestFirmware: "4.0.2",
    warrantyDays: -30,
    linked: false,
    https: false,
    port: null,
    subscription: "acme",
    tags: ["Warehouse"],
    sensors: [
      {
        mac: "BASE02",
        kind: "base",
        sensorType: "Internal",
        label: "RAMAX",
        groupType: 1300,
        isHub: true,
        pluggedIn: true,
        channels: [temp(18.2)],
      },
      {
        mac: "A2B001",
        kind: "wired",
        sensorType: "Voltage Adapter",
        label: "Pump Voltage",
        groupType: 1100,
        channels: [volt(11.8)],
      },
      {
        mac: "A2B002",
        kind: "wired",
        sensorType: "Analog Adapter",
        label: "Line Flow",
        groupType: 1100,
        staleHours: 3,
        channels: [analog(12.5)],
      },
      {
        mac: "A2B003",
        kind: "wired",
        sensorType: "Temp/Humidity Probe",
        label: "Dock Probe",
        groupType: 1100,
        channels: TH(12.3, 62),
      },
      {
        mac: "O2C001",
        kind: "other",
        sensorType: "CO2",
        label: "Air Quality",
        groupType: 1400,
        channels: [co2(612)],
      },
    ],
  },
  {
    name: "Freezer Monitor",
    type: "WS2",
    deviceType: "WS2",
    mac: "00:1A:2B:3C:4D:03",
    hash: DEMO.otherDeviceHash,
    model: "WS2 Wi-Fi Sensor",
    location: "Kitchen",
    geocode: null,
    firmware: "2.0.7",
    latestFirmware: "2.0.7",
    warrantyDays: 120,
    linked: false,
    https: false,
    port: 80,
    subscription: "acme",
    tags: ["Freezer"],
    sensors: [
      {
        mac: "WS2001",
        kind: "base",
        sensorType: "Temperature",
        label: "Chest Freezer",
        groupType: 1300,
        pluggedIn: true,
        channels: [temp(-18.4)],
      },
    ],
  },
  {
    name: "Northwind Dock Station",
    type: "RA8",
    deviceType: "RA8",
    mac: "00:1A:2B:3C:4D:04",
    hash: null,
    model: "RA8 Base Station",
    location: "Dock 3",
    geocode: null,
    firmware: "4.1.0",
    latestFirmware: "4.2.1",
    warrantyDays: 10,
    linked: false,
    https: false,
    port: null,
    subscription: "northwind",
    tags: [],
    sensors: [
      {
        mac: "BASE04",
        kind: "base",
        sensorType: "Internal",
        label: "Dock Station",
        groupType: 1300,
        isHub: true,
        channels: [temp(6.5), hum(70)],
      },
    ],
  },
];
