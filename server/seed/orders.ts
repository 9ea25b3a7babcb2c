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

const DAY = 86_400_000;
type ShipmentSpec = { delivered: boolean; daysAgo: number; lines: number[] };
interface OrderSpec {
  id: number;
  shipping: string;
  payment: string;
  paidShare: number;
  shipments: ShipmentSpec[];
  po?: string;
  sub?: "northwind";
}

/** One order per payment status, across every shipping status, with shipments and carrier activity. */
const ORDER_SPECS: OrderSpec[] = [
  { id: 5001, shipping: "Received", payment: "Open", paidShare: 0, shipments: [] },
  {
    id: 5002,
    shipping: "Shipped",
    payment: "Invoiced",
    paidShare: 0,
    shipments: [{ delivered: false, daysAgo: 2, lines: [0, 1, 2] }],
    po: "PO-88121",
  },
  {
    id: 5003,
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
    shipping: "Delivered",
    payment: "Paid",
    paidShare: 1,
    shipments: [{ delivered: true, daysAgo: 20, lines: [0, 1, 2] }],
  },
  { id: 5005, shipping: "Cancelled", payment: "Cancelled", paidShare: 0, shipments: [] },
  { id: 5006, shipping: "Hold", payment: "Hold", paidShare: 0, shipments: [] },
  { id: 5007, shipping: "Open", payment: "New", paidShare: 0, shipments: [] },
  {
    id: 5008,
    shipping: "Delivered",
    payment: "Refunded",
    paidShare: 0,
    shipments: [{ delivered: true, daysAgo: 40, lines: [0, 1, 2] }],
  },
  { id: 5009, shipping: "No Shipment", payment: "Closed", paidShare: 1, shipments: [] },
  { id: 5010, shipping: "Received", payment: "Pending", paidShare: 1, shipments: [] },
  { id: 5011, shipping: "Received", payment: "Dead", paidShare: 0, shipments: [] },
  {
    id: 5012,
    shipping: "Shipped",
    payment: "Open",
    paidShare: 0,
    shipments: [{ delivered: true, daysAgo: 3, lines: [0] }],
    sub: "northwind",
  },
];
const LINES = [line("RA12-BS", 1), line("WS-TH", 4, "10%"), line("CBL-10", 2, "$5")];

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
    const subtotal = sumOf(LINES);
    const tax = cents(subtotal * 0.0625),
      shippingAmount = cents(2995);
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
      .values(LINES.map((l) => ({ ...l, orderId: o.id })))
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
