import { cents, type Cents } from "./brand.ts";

/** What a product is, for the products page's sections. */
export type ProductKind = "station" | "sensor" | "accessory" | "service";

export interface Product {
  description: string;
  listPrice: Cents;
  kind: ProductKind;
  /** One sentence for the products page. */
  summary: string;
  /** The drawing under public/devices/ of the device it is, when it is one. */
  picture?: string;
}

/**
 * The demo company's price list: the quotes and orders of the demo sell from it (server/seed)
 * and /products lists it. Prices are in cents.
 */
export const CATALOGUE = {
  "RA12-BS": {
    description: "RA12 Base Station",
    listPrice: cents(89900),
    kind: "station",
    summary: "Twelve wireless sensor slots, Ethernet and Wi-Fi, a day of readings kept through an outage.",
    picture: "/devices/ra12.svg",
  },
  "RA8-BS": {
    description: "RA8 Base Station",
    listPrice: cents(64900),
    kind: "station",
    summary: "Eight wireless sensor slots for a single room, a dock or a small site.",
    picture: "/devices/ra8.svg",
  },
  "RAMAX-C": {
    description: "RAMAX Controller",
    listPrice: cents(124900),
    kind: "station",
    summary: "Rack-mount controller for wired sensor adapters, probes and CO2 sensors.",
    picture: "/devices/ramax.svg",
  },
  "WS2-WF": {
    description: "WS2 Wi-Fi Sensor",
    listPrice: cents(18900),
    kind: "sensor",
    summary: "A temperature sensor that reports over Wi-Fi on its own, no base station needed.",
    picture: "/devices/ws2.svg",
  },
  "WS-TH": {
    description: "Wireless Temp/Humidity Sensor",
    listPrice: cents(12900),
    kind: "sensor",
    summary: "Temperature and relative humidity every minute, two years on its batteries.",
    picture: "/devices/ws-th.svg",
  },
  "WS-T": {
    description: "Wireless Temperature Sensor",
    listPrice: cents(9900),
    kind: "sensor",
    summary: "A sealed temperature sensor for freezers and cold rooms down to -40 °C.",
    picture: "/devices/ws-t.svg",
  },
  "WA-4": {
    description: "Wired Sensor Adapter, 4 inputs",
    listPrice: cents(15900),
    kind: "sensor",
    summary: "Connects voltage, 4-20 mA and contact inputs to a RAMAX controller.",
    picture: "/devices/wa-4.svg",
  },
  "CO2-S": {
    description: "CO2 Sensor",
    listPrice: cents(34900),
    kind: "sensor",
    summary: "Carbon dioxide from 0 to 5,000 ppm, for incubators and occupied rooms.",
    picture: "/devices/co2.svg",
  },
  "CBL-10": {
    description: "Sensor extension cable, 10 ft",
    listPrice: cents(2400),
    kind: "accessory",
    summary: "Places a wired probe outside the cabinet it measures.",
    picture: "/devices/cable.svg",
  },
  "SUB-PRO-1Y": {
    description: "Professional subscription, 1 year",
    listPrice: cents(59900),
    kind: "service",
    summary: "A year of history, shared reports, alerts by mail and webhook, and support by phone.",
  },
  "DATA-API": {
    description: "Data API access, 1 year",
    listPrice: cents(19900),
    kind: "service",
    summary: "Readings and devices through the portal's API, for your own systems.",
  },
} as const satisfies Record<string, Product>;

export type ProductNumber = keyof typeof CATALOGUE;
