/** The demo price list (cents); quotes and orders sell from it. */
const PRODUCTS = {
  "RA12-BS": { description: "RA12 Base Station", listPrice: 89900 },
  "WS-TH": { description: "Wireless Temp/Humidity Sensor", listPrice: 12900 },
  "CBL-10": { description: "Sensor extension cable, 10 ft", listPrice: 2400 },
  "SUB-PRO-1Y": { description: "Professional subscription, 1 year", listPrice: 59900 },
  "DATA-API": { description: "Data API access, 1 year", listPrice: 19900 },
} as const;

/** A line item of a product from the price list. */
export function line(productNumber: keyof typeof PRODUCTS, quantity: number, discount: string | null = null) {
  return { productNumber, ...PRODUCTS[productNumber], quantity, discount };
}
