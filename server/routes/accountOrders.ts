import { Hono, type Context } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { itemCounts, orderDetails, orderRecord, subscriptionOrders } from "../data/orders.ts";
import { quoteDetails, quoteRecord, subscriptionQuotes } from "../data/quotes.ts";
import { fullQuote } from "../../src/api/quotes.ts";
import { shippingProgress } from "../../src/domain/order.ts";
import { orderShipments } from "../data/shipments.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { authOf, inSubscription } from "../http/auth.ts";
import { idParam } from "../http/input.ts";
import { publicOrderPath } from "../../src/domain/paths.ts";
import { roleMay } from "../../src/domain/permissions.ts";
import type { RoleId } from "../../src/domain/roles.ts";
import { reply } from "../http/reply.ts";
import { privateResponse } from "../http/headers.ts";
import { sendReceipt } from "./guestPayments.ts";
import {
  getAccountOrder,
  getAccountPaymentReceipt,
  getAccountQuote,
  getAccountShipmentList,
  LIST_LIMIT,
  listAccountOrders,
  listAccountQuotes,
} from "../../src/api/accountOrders.ts";

/** Spec section 6: share-link privileges, or grant-access ones (whose menu has Get Link too). */
const mayShareLink = (role: RoleId) => roleMay(role, "share.link") || roleMay(role, "access.grant");

/**
 * The signed-in quote and order pages' reads. Every record is read by id and then checked
 * against the active subscription: another subscription's id answers the same 404 as a
 * missing one (inSubscription), a malformed id a 400 (idParam).
 */
export function accountOrderRoutes(deps: Deps) {
  const { db } = deps;
  const ownOrder = async (c: Context) => {
    const record = await orderRecord(db, idParam(c, "orderId"));
    if (!record) throw new ApiError(404, NOT_FOUND);
    inSubscription(authOf(c), record.row);
    return record;
  };
  return new Hono()
    .get(listAccountOrders.path, guard(listAccountOrders, deps), async (c) => {
      const found = await subscriptionOrders(db, authOf(c).subscription.id, LIST_LIMIT);
      return reply(c, listAccountOrders, {
        orderList: found.list,
        limit: LIST_LIMIT,
        truncated: found.truncated,
      });
    })
    .get(listAccountQuotes.path, guard(listAccountQuotes, deps), async (c) => {
      const found = await subscriptionQuotes(db, authOf(c).subscription.id, LIST_LIMIT);
      return reply(c, listAccountQuotes, {
        quoteList: found.list,
        limit: LIST_LIMIT,
        truncated: found.truncated,
      });
    })
    .get(getAccountOrder.path, guard(getAccountOrder, deps), async (c) => {
      const record = await ownOrder(c);
      const shipments = await orderShipments(db, record.row.id);
      // Carrier scans feed only the public page's timeline; this page opens them per shipment.
      const details = await orderDetails(db, record, shipments, new Map(), null);
      const counts = itemCounts(record, shipments);
      return reply(c, getAccountOrder, {
        orderDetails: {
          ...details,
          shippingProgress: shippingProgress({
            shippingStatus: record.row.shippingStatus,
            ...counts,
            shipments,
          }),
          unshippedItems: Math.max(0, counts.ordered - counts.shipped),
          publicPath: mayShareLink(authOf(c).roleId)
            ? publicOrderPath(record.row.id, record.row.validationId)
            : null,
        },
      });
    })
    .get(getAccountPaymentReceipt.path, guard(getAccountPaymentReceipt, deps), privateResponse, async (c) =>
      sendReceipt(c, await ownOrder(c), c.req.param("paymentId")),
    )
    .get(getAccountShipmentList.path, guard(getAccountShipmentList, deps), async (c) => {
      const record = await ownOrder(c);
      return reply(c, getAccountShipmentList, { shipmentList: await orderShipments(db, record.row.id) });
    })
    .get(getAccountQuote.path, guard(getAccountQuote, deps), async (c) => {
      const record = await quoteRecord(db, idParam(c, "quoteId"));
      if (!record) throw new ApiError(404, NOT_FOUND);
      inSubscription(authOf(c), record.row);
      const full = fullQuote(
        await quoteDetails(db, record, { full: true, now: deps.now(), memberPath: null }),
      );
      if (!full) throw new ApiError(404, NOT_FOUND);
      // The guest token is the quote's shareable secret: sharing it is a later, privileged action.
      return reply(c, getAccountQuote, {
        quoteDetails: { ...full, guestToken: null, orderId: record.row.orderId },
      });
    });
}
