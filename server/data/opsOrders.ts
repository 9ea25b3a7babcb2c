import { eq, inArray, sql } from "drizzle-orm";
import { ApiError, NOT_FOUND, type FieldError } from "../core/errors.ts";
import type { Db } from "../db/client.ts";
import {
  addresses,
  countries,
  orderLineItems,
  orders,
  payments,
  shipmentItems,
  shipments,
  trackingActivity,
} from "../db/schema/index.ts";
import { cents } from "../../src/domain/brand.ts";
import { formatMoney } from "../../src/domain/money.ts";
import type { OpsActivityInput, OpsPaymentInput, OpsShipInput } from "../../src/api/ops.ts";
import { orderRecord } from "./orders.ts";
import { settleOrderPayment } from "./payments.ts";

export const ORDER_CANCELLED = "The order is cancelled; it cannot ship.";
export const TRACKING_TAKEN = "This tracking number is already on a shipment.";
export const TRACKING_TWICE = "A tracking number is given twice.";
export const NO_SUCH_TRACKING = "No shipment has this tracking number.";
export const NOTHING_OWED = "The order owes nothing; record a refund instead.";

/** The order row, locked for the write (payments and shipments of one order go one at a time). */
async function lockedOrder(tx: Db, id: number) {
  const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for("update");
  if (!row) throw new ApiError(404, NOT_FOUND);
  return row;
}

/** Each line item with what is left to ship (ordered less shipped so far). */
async function unshipped(tx: Db, orderId: number) {
  const lines = await tx.select().from(orderLineItems).where(eq(orderLineItems.orderId, orderId));
  const sent = await tx
    .select({ lineId: shipmentItems.orderLineItemId, quantity: sql<string>`sum(${shipmentItems.quantity})` })
    .from(shipmentItems)
    .where(inArray(shipmentItems.orderLineItemId, lines.length ? lines.map((l) => l.id) : [0]))
    .groupBy(shipmentItems.orderLineItemId);
  return lines.map((l) => ({
    id: l.id,
    productNumber: l.productNumber,
    left: l.quantity - Number(sent.find((s) => s.lineId === l.id)?.quantity ?? 0),
  }));
}

/** What the first package carries: the items named (checked against what is left), else all that is left. */
function packed(lines: Awaited<ReturnType<typeof unshipped>>, items: OpsShipInput["items"]) {
  if (!items) return lines.filter((l) => l.left > 0).map((l) => ({ lineId: l.id, quantity: l.left }));
  const errors: FieldError[] = [];
  const taken = new Map<number, number>();
  const chosen = items.flatMap((item, i) => {
    const line = lines.find(
      (l) => l.productNumber === item.productNumber && l.left - (taken.get(l.id) ?? 0) > 0,
    );
    if (!line) {
      errors.push({ field: `items.${i}.productNumber`, message: "The order has no such item left to ship." });
      return [];
    }
    const left = line.left - (taken.get(line.id) ?? 0);
    if (item.quantity > left)
      errors.push({ field: `items.${i}.quantity`, message: `Only ${left} left to ship.` });
    taken.set(line.id, (taken.get(line.id) ?? 0) + item.quantity);
    return [{ lineId: line.id, quantity: item.quantity }];
  });
  if (errors.length) throw new ApiError(400, errors);
  return chosen;
}

/** Where the order goes, for the shipment's address (city, state, country). */
async function destination(tx: Db, addressId: number | null) {
  if (addressId === null) return { toCity: null, toState: null, toCountry: null };
  const [a] = await tx
    .select({ toCity: addresses.city, toState: addresses.state, toCountry: countries.name })
    .from(addresses)
    .leftJoin(countries, eq(countries.id, addresses.countryId))
    .where(eq(addresses.id, addressId));
  return a ?? { toCity: null, toState: null, toCountry: null };
}

/**
 * Marks an order shipped: one shipment per tracking number, the first carrying the items (all
 * that is left unless named), the order Shipped (or Partial while items remain) with its
 * carrier, method and first shipping time.
 */
export async function shipOrder(tx: Db, orderId: number, s: OpsShipInput, now: Date) {
  const order = await lockedOrder(tx, orderId);
  if (order.shippingStatus.toLowerCase() === "cancelled") throw new ApiError(409, ORDER_CANCELLED);
  if (new Set(s.trackingNumbers).size !== s.trackingNumbers.length)
    throw new ApiError(400, [{ field: "trackingNumbers", message: TRACKING_TWICE }]);
  const taken = await tx
    .select({ n: shipments.trackingNumber })
    .from(shipments)
    .where(inArray(shipments.trackingNumber, s.trackingNumbers));
  if (taken.length)
    throw new ApiError(409, [{ field: "trackingNumbers", message: `${TRACKING_TAKEN} (${taken[0]!.n})` }]);
  const lines = await unshipped(tx, orderId);
  const contents = packed(lines, s.items);
  const shippedAt = s.shippedAt === undefined ? now : new Date(s.shippedAt * 1000);
  const to = await destination(tx, order.shippingAddressId);
  const created = await tx
    .insert(shipments)
    .values(
      s.trackingNumbers.map((trackingNumber) => ({
        orderId,
        shippingDate: shippedAt,
        carrier: s.carrier,
        shipMethod: s.shipMethod,
        trackingNumber,
        ...to,
      })),
    )
    .returning({ id: shipments.id, trackingNumber: shipments.trackingNumber });
  if (contents.length)
    await tx.insert(shipmentItems).values(
      contents.map((c) => ({
        shipmentId: created[0]!.id,
        orderLineItemId: c.lineId,
        quantity: c.quantity,
      })),
    );
  const left = lines.reduce((sum, l) => sum + l.left, 0) - contents.reduce((sum, c) => sum + c.quantity, 0);
  const shippingStatus = left > 0 ? "Partial" : "Shipped";
  await tx
    .update(orders)
    .set({
      shippingStatus,
      shippingTimestamp: order.shippingTimestamp ?? shippedAt,
      shipCarrier: s.carrier,
      shipMethod: s.shipMethod,
    })
    .where(eq(orders.id, orderId));
  return { orderId, shippingStatus, shipments: created };
}

/**
 * Adds a carrier scan to a tracking number. A delivery scan marks the shipment delivered, and
 * the order Delivered once every item has shipped and every shipment arrived.
 */
export async function addTrackingActivity(tx: Db, trackingNumber: string, a: OpsActivityInput) {
  const [shipment] = await tx
    .select()
    .from(shipments)
    .where(eq(shipments.trackingNumber, trackingNumber))
    .for("update");
  if (!shipment) throw new ApiError(404, NO_SUCH_TRACKING);
  const order = await lockedOrder(tx, shipment.orderId);
  const [row] = await tx
    .insert(trackingActivity)
    .values({
      trackingNumber,
      occurredAt: new Date(a.occurredAt * 1000),
      locationDescription: a.locationDescription,
      description: a.description,
      signedForByName: a.signedForByName ?? null,
    })
    .returning({ id: trackingActivity.id });
  let shippingStatus = order.shippingStatus;
  if (a.delivered) {
    await tx.update(shipments).set({ isDelivered: true }).where(eq(shipments.id, shipment.id));
    const all = await tx
      .select({ delivered: shipments.isDelivered })
      .from(shipments)
      .where(eq(shipments.orderId, order.id));
    const left = (await unshipped(tx, order.id)).reduce((sum, l) => sum + l.left, 0);
    if (left === 0 && all.every((s) => s.delivered)) {
      shippingStatus = "Delivered";
      await tx.update(orders).set({ shippingStatus }).where(eq(orders.id, order.id));
    }
  }
  return { id: row!.id, trackingNumber, isDelivered: a.delivered || shipment.isDelivered, shippingStatus };
}

/**
 * Records money the back office received (or paid back) outside the portal. A payment may not
 * exceed the balance due and settles the order the way a card payment does (paid in full →
 * Paid); a refund is a negative payment row, may not exceed what was paid, and a fully
 * refunded order becomes Refunded.
 */
export async function recordOfflinePayment(
  tx: Db,
  orderId: number,
  p: OpsPaymentInput,
  key: string,
  now: Date,
) {
  const order = await lockedOrder(tx, orderId);
  const before = (await orderRecord(tx, orderId, tx))!;
  const money = (amount: number) => formatMoney(cents(amount), order.currency);
  if (p.kind === "payment") {
    if (before.balanceDue <= 0) throw new ApiError(409, NOTHING_OWED);
    if (p.amount > before.balanceDue)
      throw new ApiError(400, [
        {
          field: "amount",
          message: `The amount is more than the balance due (${money(before.balanceDue)}).`,
        },
      ]);
  } else if (p.amount > before.paid) {
    throw new ApiError(400, [
      { field: "amount", message: `The refund is more than was paid (${money(before.paid)}).` },
    ]);
  }
  const [payment] = await tx
    .insert(payments)
    .values({
      orderId,
      amount: cents(p.kind === "refund" ? -p.amount : p.amount),
      currency: order.currency,
      method: p.kind === "refund" ? `Refund (${p.method})` : p.method,
      gatewayReference: p.reference ?? null,
      idempotencyKey: `ops:${key}`,
      createdAt: p.receivedAt === undefined ? now : new Date(p.receivedAt * 1000),
    })
    .returning({ id: payments.id });
  let { record, paymentStatus } = await settleOrderPayment(tx, orderId);
  if (p.kind === "refund" && record.paid <= 0) {
    paymentStatus = "Refunded";
    await tx.update(orders).set({ paymentStatus }).where(eq(orders.id, orderId));
  }
  return { paymentId: payment!.id, paymentStatus, paid: record.paid, balanceDue: record.balanceDue };
}
