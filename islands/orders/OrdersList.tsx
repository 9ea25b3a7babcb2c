import { useStore } from "@nanostores/react";
import { getPagePath } from "@nanostores/router";
import type { OrderSummary } from "../../src/api/accountOrders.ts";
import { cents } from "../../src/domain/brand.ts";
import { poDisplay } from "../../src/domain/order.ts";
import { shipsNothing } from "../../src/domain/orderShown.ts";
import { $orderList, $orderSearch, $shownOrders, loadOrderList } from "../../src/stores/accountOrders.ts";
import { $router } from "../../src/stores/router.ts";
import { Day } from "../guest/Day.tsx";
import { Money } from "../ui/Money.tsx";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import { NothingToShip, OrderBalance, RecordsList, needsShippingOf, type Column } from "./ListParts.tsx";
import { ShippingProgressBadge } from "./ShippingProgress.tsx";
import "../../src/styles/orders.css";

const COLUMNS: Column<OrderSummary>[] = [
  {
    head: "Order Number",
    cell: (o) => <a href={getPagePath($router, "orderDetails", { id: String(o.id) })}>{o.orderNumber}</a>,
  },
  { head: "Ordered On", cell: (o) => <Day at={o.createdAt} /> },
  {
    head: "Shipping",
    cell: (o) =>
      shipsNothing({ needsShipping: needsShippingOf(o) }) ? (
        <NothingToShip />
      ) : (
        <ShippingProgressBadge progress={o.shippingProgress} />
      ),
  },
  { head: "Payment", cell: (o) => <StatusBadge kind="billing" status={o.billingStatus} /> },
  { head: "PO Number", cell: (o) => poDisplay(o.poNumber) },
  { head: "Total", cell: (o) => <Money amount={cents(o.grandTotalCents)} currency={o.currency} /> },
  { head: "Balance Due", cell: (o) => <OrderBalance order={o} /> },
];

/** /s/orders/list: the active subscription's orders, newest first, searchable by number. */
export default function OrdersList() {
  return (
    <RecordsList
      title="Orders"
      other={{ to: "quotes", label: "Quotes" }}
      search={{ $search: $orderSearch, label: "Search by order number", example: "ORD-12345" }}
      state={useStore($orderList)}
      shown={useStore($shownOrders)}
      emptyText="Orders placed from your quotes appear here."
      onRetry={() => void loadOrderList()}
      columns={COLUMNS}
    />
  );
}
