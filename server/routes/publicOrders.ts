import { Hono, type Context } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { orderByPublicRef, orderDetails, type ScansByTrackingNumber } from "../data/orders.ts";
import { orderShipments } from "../data/shipments.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { cachedAnswer } from "../http/answers.ts";
import { readsOf } from "../http/readRouting.ts";
import { reply, sendSerialized, serialized } from "../http/reply.ts";
import { sessionToken } from "../http/cookies.ts";
import { viewerOf } from "../http/viewer.ts";
import type { CarrierEvent, Carriers } from "../services/carriers.ts";
import { getPublicOrder } from "../../src/api/orders.ts";
import { parsePublicOrderRef } from "../../src/domain/order.ts";
import { getShipmentList, type Shipment } from "../../src/api/shipments.ts";
import { appPath } from "../../src/domain/appPaths.ts";

/**
 * The public order page's reads, by the shared reference ORD-{id}-{validationId}. A malformed,
 * unknown or wrong reference answers the same 404 (the validation id is the secret).
 */
export function publicOrderRoutes(deps: Deps) {
  const orderOf = async (c: Context, db: Deps["db"]) => {
    const record = await orderByPublicRef(db, c.req.param("ref") ?? "");
    if (!record) throw new ApiError(404, NOT_FOUND);
    return record;
  };
  return new Hono()
    .get(getPublicOrder.path, guard(getPublicOrder, deps), async (c) => {
      // One key per order, however its reference is written (ORD- or not, any case, padding).
      const parsed = parsePublicOrderRef(c.req.param("ref") ?? "");
      const ref = parsed ? `${parsed.id}-${parsed.validationId}` : (c.req.param("ref") ?? "");
      // The record's part is the same for every visitor: cached. Whether this visitor is a
      // member of its subscription is theirs alone: read per request, never cached.
      // The record is read on the replica when it may serve; a payment's write is read back
      // from the primary (readsOf).
      const found = await cachedAnswer(c, deps.answers, `order:${ref}`, () =>
        readsOf(
          c,
          deps.reads,
        )(async (db) => {
          const record = await orderOf(c, db);
          const shipments = await orderShipments(db, record.row.id);
          const scans = await scansOf(deps.carriers, shipments);
          const details = await orderDetails(db, record, shipments, scans, null);
          return { details, subscriptionId: record.row.subscriptionId };
        }),
      );
      // A visitor without a session is no member: their answer is the same for all, sent as
      // serialized once.
      if (!sessionToken(c)) {
        const answer = await cachedAnswer(c, deps.answers, `order-answer:${ref}`, async () =>
          serialized(getPublicOrder, { orderDetails: { ...found.details, memberPath: null } }),
        );
        return sendSerialized(c, answer);
      }
      const viewer = await viewerOf(c, deps, found, appPath("orderDetails", { id: found.details.id }));
      return reply(c, getPublicOrder, { orderDetails: { ...found.details, ...viewer } });
    })
    .get(getShipmentList.path, guard(getShipmentList, deps), async (c) => {
      const shipmentList = await readsOf(
        c,
        deps.reads,
      )(async (db) => orderShipments(db, (await orderOf(c, db)).row.id));
      return reply(c, getShipmentList, { shipmentList });
    });
}

/**
 * Each shipment's carrier scans for the timeline. A carrier that knows nothing, or fails (a
 * real carrier's API may be down), gives none: the order page still shows the order.
 */
async function scansOf(carriers: Carriers, shipments: readonly Shipment[]): Promise<ScansByTrackingNumber> {
  const found = await Promise.all(
    shipments.map(async (s): Promise<[string, CarrierEvent[]]> => {
      try {
        return [s.trackingNumber, (await carriers.tracking(s.trackingNumber))?.activity ?? []];
      } catch (e) {
        console.warn(JSON.stringify({ level: "warn", what: "carrier tracking failed", error: String(e) }));
        return [s.trackingNumber, []];
      }
    }),
  );
  return new Map(found);
}
