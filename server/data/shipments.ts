import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { orderLineItems, shipmentItems, shipments, trackingActivity } from "../db/schema/index.ts";
import type { Shipment } from "../../src/api/shipments.ts";
import { secondsOrNull } from "./records.ts";

/** An order's shipments as the contracts show them, oldest first, with what each carries. */
export async function orderShipments(db: Db, orderId: number): Promise<Shipment[]> {
  const rows = await db
    .select()
    .from(shipments)
    .where(eq(shipments.orderId, orderId))
    .orderBy(asc(shipments.id));
  if (!rows.length) return [];
  const items = await db
    .select({
      shipmentId: shipmentItems.shipmentId,
      productNumber: orderLineItems.productNumber,
      description: orderLineItems.description,
      quantity: shipmentItems.quantity,
    })
    .from(shipmentItems)
    .innerJoin(orderLineItems, eq(orderLineItems.id, shipmentItems.orderLineItemId))
    .where(
      inArray(
        shipmentItems.shipmentId,
        rows.map((s) => s.id),
      ),
    )
    .orderBy(asc(shipmentItems.id));
  return rows.map((s) => ({
    id: s.id,
    shippingDate: secondsOrNull(s.shippingDate),
    shippedAt: secondsOrNull(s.shippingDate),
    carrier: s.carrier,
    shipMethod: s.shipMethod,
    trackingNumber: s.trackingNumber,
    shipmentItems: items
      .filter((i) => i.shipmentId === s.id)
      .map(({ productNumber, description, quantity }) => ({ productNumber, description, quantity })),
    address: { city: s.toCity, state: s.toState, country: s.toCountry },
    distributionOrigin: {
      shippingAddress: { city: s.fromCity, state: s.fromState, countryCode: s.fromCountryCode },
    },
    isDelivered: s.isDelivered,
  }));
}

/**
 * The default carrier's source (services/carriers.ts): the method of the shipment that
 * carries the number and the number's activity rows; null when no shipment carries it.
 */
export function trackingReader(db: Db) {
  // One query: the shipment (tracking numbers are unique) joined to its scans, if any.
  return async (trackingNumber: string) => {
    const found = await db
      .select({
        method: shipments.shipMethod,
        at: trackingActivity.occurredAt,
        location: trackingActivity.locationDescription,
        description: trackingActivity.description,
        signedForByName: trackingActivity.signedForByName,
      })
      .from(shipments)
      .leftJoin(trackingActivity, eq(trackingActivity.trackingNumber, shipments.trackingNumber))
      .where(eq(shipments.trackingNumber, trackingNumber))
      .orderBy(asc(trackingActivity.occurredAt), asc(trackingActivity.id));
    if (!found.length) return null;
    const activity = found.flatMap(({ at, location, description, signedForByName }) =>
      at === null ? [] : [{ at, location: location ?? "", description: description ?? "", signedForByName }],
    );
    return { method: found[0]!.method, activity };
  };
}
