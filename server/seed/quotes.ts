import type { Db } from "../db/client.ts";
import { addresses, quoteLineItems, quotes } from "../db/schema/index.ts";
import { cents } from "../../src/domain/brand.ts";
import { subtotal } from "../../src/domain/index.ts";
import { demoHexToken } from "./demo.ts";
import { line } from "./products.ts";

const DAY = 86_400_000;
export const ACME_SHIP = {
  companyName: "Acme Labs",
  contactName: "Dana Whitfield",
  attention: "Receiving",
  line1: "100 Research Park Dr",
  line2: "Building 2",
  city: "Boston",
  state: "MA",
  zipCode: "02110",
  countryId: 1,
  phoneNumber: "617-555-0142",
};
export const ACME_BILL = {
  companyName: "Acme Labs",
  contactName: "Accounts Payable",
  attention: null,
  line1: "PO Box 4410",
  line2: null,
  city: "Boston",
  state: "MA",
  zipCode: "02111",
  countryId: 1,
  phoneNumber: "617-555-0100",
};
const NW_SHIP = {
  companyName: "Northwind Cold Storage",
  contactName: "Nora Northwind",
  attention: null,
  line1: "12 Harbour St",
  line2: null,
  city: "Toronto",
  state: "ON",
  zipCode: "M5J 2N8",
  countryId: 4,
  phoneNumber: "416-555-0190",
};

/** What each quote sells: different products and quantities, so no two totals agree. */
const ITEMS = {
  1001: [line("RA12-BS", 1), line("WS-TH", 6, "10%"), line("SUB-PRO-1Y", 1, "$50")],
  /** Ordered: the lines of order 5001 (orders.ts). */
  1002: [line("RA8-BS", 1), line("WS-T", 3), line("CBL-10", 1)],
  1003: [line("RAMAX-C", 1), line("WA-4", 3), line("CBL-10", 4, "$10")],
  1004: [line("DATA-API", 1)],
  1005: [line("RA8-BS", 1), line("WS-T", 4, "5%")],
};
export const CLOSED_QUOTE_ITEMS = ITEMS[1002];

/** Inserts an address and returns its id. */
export async function address(
  db: Db,
  subscriptionId: number | null,
  a: typeof ACME_SHIP | typeof ACME_BILL | typeof NW_SHIP,
) {
  const [row] = await db
    .insert(addresses)
    .values({ ...a, subscriptionId })
    .returning();
  return row!.id;
}

/** Quotes: open, closed (ordered), open but expired, a euro quote without shipping, another subscription's. */
export async function seedQuotes(db: Db, now: Date, acmeId: number, northwindId: number) {
  const ship = await address(db, acmeId, ACME_SHIP);
  const bill = await address(db, acmeId, ACME_BILL);
  const nwShip = await address(db, northwindId, NW_SHIP);
  const base = {
    productFamily: "Environmental Monitoring",
    contactName: "Dana Whitfield",
    contactEmail: "dana@acme.example.com",
    crmOrgId: 7000,
    specialistName: "Sam Rivera",
    specialistPhone: "800-555-0199",
    specialistPhoneExtension: "214",
    shippingAddressId: ship,
    billingAddressId: bill,
    subscriptionId: acmeId,
  };
  const rows = [
    {
      ...base,
      id: 1001,
      status: "Open",
      createdAt: new Date(now.getTime() - 5 * DAY),
      expiresAt: new Date(now.getTime() + 25 * DAY),
      tax: cents(14523),
      shippingCost: cents(2995),
      shippingCarrier: "UPS",
      shippingMethod: "2nd Day Air",
    },
    {
      ...base,
      id: 1002,
      status: "Closed",
      createdAt: new Date(now.getTime() - 60 * DAY),
      expiresAt: new Date(now.getTime() - 30 * DAY),
      // Massachusetts' 6.25 % of the subtotal; Ground for five items.
      tax: cents(subtotal(ITEMS[1002]) * 0.0625),
      shippingCost: cents(1495 + 250 * 5),
      shippingCarrier: "UPS",
      shippingMethod: "Ground",
      orderId: 5001,
    },
    {
      ...base,
      id: 1003,
      status: "Open",
      createdAt: new Date(now.getTime() - 45 * DAY),
      expiresAt: new Date(now.getTime() - 15 * DAY),
      tax: cents(0),
      shippingCost: cents(0),
    },
    {
      ...base,
      id: 1004,
      status: "Open",
      productFamily: "Data Services",
      currency: 2,
      needsShipping: false,
      createdAt: new Date(now.getTime() - 2 * DAY),
      expiresAt: new Date(now.getTime() + 28 * DAY),
      tax: cents(3800),
      shippingCost: cents(0),
      shippingAddressId: null,
    },
    {
      ...base,
      id: 1005,
      status: "Open",
      subscriptionId: northwindId,
      contactName: "Nora Northwind",
      contactEmail: "owner@northwind.example.com",
      crmOrgId: 7100,
      shippingAddressId: nwShip,
      billingAddressId: nwShip,
      createdAt: new Date(now.getTime() - 1 * DAY),
      expiresAt: new Date(now.getTime() + 29 * DAY),
      tax: cents(0),
      shippingCost: cents(0),
    },
  ];
  for (const q of rows) {
    await db.insert(quotes).values({ ...q, publicToken: demoHexToken(`quote-${q.id}`) });
    const items = ITEMS[q.id as keyof typeof ITEMS];
    await db
      .insert(quoteLineItems)
      .values(items.map((i) => ({ ...i, quoteId: q.id, currency: "currency" in q ? q.currency : 1 })));
  }
  return { ship, bill, nwShip };
}
