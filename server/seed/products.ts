import { cents, type Cents } from "../../src/domain/brand.ts";

/** The demo price list; quotes and orders sell from it. */
const PRODUCTS = {
  "RA12-BS": { description: "RA12 Base Station", listPrice: cents(89900) },
  "WS-TH": { description: "Wireless Temp/Humidity Sensor", listPrice: cents(12900) },
  "CBL-10": { description: "Sensor extension cable, 10 ft", listPrice: cents(2400) },
  "SUB-PRO-1Y": { description: "Professional subscription, 1 year", listPrice: cents(59900) },
  "DATA-API": { description: "Data API access, 1 year", listPrice: cents(19900) },
} satisfies Record<string, { description: string; listPrice: Cents }>;

/** A line item of a product from the price list. */
export function line(productNumber: keyof typeof PRODUCTS, quantity: number, discount: string | null = null) {
  return { productNumber, ...PRODUCTS[productNumber], quantity, discount };
}
