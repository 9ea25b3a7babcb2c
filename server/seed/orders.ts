import type { Db } from "../db/client.ts";
import {
  orderLineItems,
  orders,
  payments,
  shipmentItems,
  shipments,
  trackingActivity,
} from "../db/schema/index.ts";
import { cents, subtotal as sumOf } from "../../src/domain/index.ts";
import { demoToken } from "./demo.ts";
import { line } from "./products.ts";
import { CLOSED_QUOTE_ITEMS } from "./quotes.ts";

const DAY = 86_400_000;
type ShipmentSpec = { delivered: boolean; daysAgo: number; lines: number[] };
type Line = ReturnType<typeof line>;
interface OrderSpec {
  id: number;
  /** What the order sells: products, quantities and discounts differ, and so do the totals. */
  lines: readonly Line[];
  shipping: string;
  payment: string;
  paidShare: number;
  shipments: ShipmentSpec[];
  po?: string;
  sub?: "northwind";
}

/** One order per payment status, across every shipping status, with shipments and carrier activity. */
const ORDER_SPECS: OrderSpec[] = [
  { id: 5001, lines: CLOSED_QUOTE_ITEMS, shipping: "Received", payment: "Open", paidShare: 0, shipments: [] },
  {
    id: 5002,
    lines: [line("RA12-BS", 1), line("WS-TH", 8, "10%"), line("CBL-10", 2)],
    shipping: "Shipped",
    payment: "Invoiced",
    paidShare: 0,
    shipments: [{ delivered: false, daysAgo: 2, lines: [0, 1, 2] }],
    po: "PO-88121",
  },
  {
    id: 5003,
    lines: [line("RA12-BS", 1), line("WS-TH", 4, "10%"), line("WS-T", 2)],
    shipping: "Shipped",
    payment: "Part Paid",
    paidShare: 0.5,
    shipments: [
      { delivered: true, daysAgo: 9, lines: [0] },
      { delivered: false, daysAgo: 1, lines: [1] },
    ],
    po: "PO-88177",
  },
  {
    id: 5004,
    lines: [line("WS-TH", 12, "15%"), line("CBL-10", 6), line("SUB-PRO-1Y", 1)],
    shipping: "Delivered",
    payment: "Paid",
    paidShare: 1,
    shipments: [{ delivered: true, daysAgo: 20, lines: [0, 1, 2] }],
  },
  {
    id: 5005,
    lines: [line("RA12-BS", 2), line("WS-TH", 10, "10%")],
    shipping: "Cancelled",
    payment: "Cancelled",
    paidShare: 0,
    shipments: [],
  },
  {
    id: 5006,
    lines: [line("WS2-WF", 4), line("CBL-10", 2, "$5")],
    shipping: "Hold",
    payment: "Hold",
    paidShare: 0,
    shipments: [],
  },
  {
    id: 5007,
    lines: [line("RA8-BS", 1), line("WS-T", 2)],
    shipping: "Open",
    payment: "New",
    paidShare: 0,
    shipments: [],
  },
  {
    id: 5008,
    lines: [line("WS2-WF", 2), line("WS-T", 5), line("CBL-10", 3)],
    shipping: "Delivered",
    payment: "Refunded",
    paidShare: 0,
    shipments: [{ delivered: true, daysAgo: 40, lines: [0, 1, 2] }],
  },
  {
    id: 5009,
    lines: [line("SUB-PRO-1Y", 1), line("DATA-API", 1, "$25")],
    shipping: "No Shipment",
    payment: "Closed",
    paidShare: 1,
    shipments: [],
  },
  {
    id: 5010,
    lines: [line("WS-TH", 5), line("CO2-S", 1, "5%")],
    shipping: "Received",
    payment: "Pending",
    paidShare: 1,
    shipments: [],
  },
  {
    id: 5011,
    lines: [line("RAMAX-C", 1), line("WA-4", 2), line("CO2-S", 2)],
    shipping: "Received",
    payment: "Dead",
    paidShare: 0,
    shipments: [],
  },
  {
    id: 5012,
    lines: [line("RA8-BS", 1), line("WS-TH", 6, "5%"), line("CBL-10", 2)],
    shipping: "Shipped",
    payment: "Open",
    paidShare: 0,
    shipments: [{ delivered: true, daysAgo: 3, lines: [0] }],
    sub: "northwind",
  },
];
/** Sales tax of the ship-to region: Massachusetts 6.25 %, Ontario 13 % (reference.ts). */
const TAX_RATE = { acme: 0.0625, northwind: 0.13 };
const SERVICES = new Set<string>(["SUB-PRO-1Y", "DATA-API"]);
/** UPS Ground as reference.ts prices it: a base and a price per item; nothing to ship, nothing. */
function groundShipping(lines: readonly Line[]) {
  const items = lines.filter((l) => !SERVICES.has(l.productNumber)).reduce((n, l) => n + l.quantity, 0);
  return cents(items ? 1495 + 250 * items : 0);
}

/** Seeds the orders; addresses come from the quote seed. */
export async function seedOrders(
  db: Db,
  now: Date,
  ids: { acmeId: number; northwindId: number; ship: number; bill: number; nwShip: number },
) {
  for (const [n, o] of ORDER_SPECS.entries()) {
    const nw = o.sub === "northwind";
    const created = new Date(now.getTime() - (30 + n) * DAY);
    const firstShip = o.shipments.length
      ? new Date(now.getTime() - Math.max(...o.shipments.map((s) => s.daysAgo)) * DAY)
      : null;
    const subtotal = sumOf(o.lines);
    const tax = cents(subtotal * TAX_RATE[nw ? "northwind" : "acme"]),
      shippingAmount = groundShipping(o.lines);
    await db.insert(orders).values({
      id: o.id,
      subscriptionId: nw ? ids.northwindId : ids.acmeId,
      quoteId: o.id === 5001 ? 1002 : null,
      validationId: demoToken(`order-${o.id}`),
      productFamily: "Environmental Monitoring",
      contactName: nw ? "Nora Northwind" : "Dana Whitfield",
      contactEmail: nw ? "owner@northwind.example.com" : "dana@acme.example.com",
      createdAt: created,
      shippingTimestamp: firstShip,
      shippingStatus: o.shipping,
      poNumber: o.po ?? null,
      paymentStatus: o.payment,
      paymentType: o.po ? "Purchase Order" : "Online - CC",
      crmOrgId: nw ? 7100 : 7000,
      shippingAddressId: nw ? ids.nwShip : ids.ship,
      billingAddressId: nw ? ids.nwShip : ids.bill,
      tax,
      shippingAmount,
      shipMethod: "Ground",
      shipCarrier: "UPS",
      referrerCode: n % 3 === 0 ? "SPRING-EXPO" : null,
    });
    const lineRows = await db
      .insert(orderLineItems)
      .values(o.lines.map((l) => ({ ...l, orderId: o.id })))
      .returning();
    if (o.paidShare > 0) {
      await db.insert(payments).values({
        orderId: o.id,
        amount: cents((subtotal + tax + shippingAmount) * o.paidShare),
        method: "Online - CC",
        cardBrand: "Visa",
        cardLast4: "4242",
        idempotencyKey: `demo-payment-${o.id}`,
        gatewayReference: `sandbox_${o.id}`,
        createdAt: new Date(created.getTime() + DAY),
      });
    }
    for (const [k, s] of o.shipments.entries()) await seedShipment(db, o.id, k, s, now, lineRows, nw);
  }
}

async function seedShipment(
  db: Db,
  orderId: number,
  k: number,
  s: ShipmentSpec,
  now: Date,
  lines: { id: number; quantity: number }[],
  nw: boolean,
) {
  const tracking = `1Z999AA1${String(orderId)}${k}${String(orderId * 7 + k).padStart(6, "0")}`;
  const shippedAt = new Date(now.getTime() - s.daysAgo * DAY);
  const [shipment] = await db
    .insert(shipments)
    .values({
      orderId,
      shippingDate: shippedAt,
      carrier: "UPS",
      shipMethod: "Ground",
      trackingNumber: tracking,
      toCity: nw ? "Toronto" : "Boston",
      toState: nw ? "ON" : "MA",
      toCountry: nw ? "Canada" : "United States",
      fromCity: "Louisville",
      fromState: "KY",
      fromCountryCode: "US",
      isDelivered: s.delivered,
    })
    .returning();
  await db.insert(shipmentItems).values(
    s.lines.map((i) => ({
      shipmentId: shipment!.id,
      orderLineItemId: lines[i]!.id,
      quantity: lines[i]!.quantity,
    })),
  );
  const steps = [
    { h: 0, where: "Louisville, KY, US", what: "Shipment picked up" },
    { h: 9, where: "Louisville, KY, US", what: "Departed from facility" },
    { h: 26, where: nw ? "Buffalo, NY, US" : "Hartford, CT, US", what: "Arrived at facility" },
    ...(s.delivered
      ? [
          { h: 40, where: nw ? "Toronto, ON, CA" : "Boston, MA, US", what: "Out for delivery" },
          {
            h: 46,
            where: nw ? "Toronto, ON, CA" : "Boston, MA, US",
            what: "Delivered",
            signed: "R. MORALES",
          },
        ]
      : []),
  ];
  // A shipment still on its way has only the scans that have happened by now.
  const happened = steps.filter((st) => shippedAt.getTime() + st.h * 3_600_000 <= now.getTime());
  await db.insert(trackingActivity).values(
    happened.map((st) => ({
      trackingNumber: tracking,
      occurredAt: new Date(shippedAt.getTime() + st.h * 3_600_000),
      locationDescription: st.where,
      description: st.what,
      signedForByName: "signed" in st ? st.signed : null,
    })),
  );
}
