import { getPagePath } from "@nanostores/router";
import { useStore } from "@nanostores/react";
import { cents } from "../../src/domain/brand.ts";
import { poDisplay } from "../../src/domain/order.ts";
import { $orderList, $orderSearch, $shownOrders, loadOrderList } from "../../src/stores/accountOrders.ts";
import { $router } from "../../src/stores/router.ts";
import { Day } from "../guest/Day.tsx";
import { Money } from "../ui/Money.tsx";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import { ListStates, NumberSearch } from "./ListParts.tsx";
import { ShippingProgressBadge } from "./ShippingProgress.tsx";
import "../../src/styles/orders.css";

/** /s/orders/list: the active subscription's orders, newest first, searchable by number. */
export default function OrdersList() {
  const state = useStore($orderList);
  const shown = useStore($shownOrders);
  return (
    <section className="records-page" aria-labelledby="orders-title">
      <header className="page-head">
        <h1 id="orders-title">Orders</h1>
        <a href={getPagePath($router, "quotes")}>Quotes</a>
      </header>
      <NumberSearch $search={$orderSearch} label="Search by order number" example="ORD-12345" />
      <ListStates
        state={state}
        shown={shown.length}
        noun="orders"
        emptyText="Orders placed from your quotes appear here."
        onRetry={() => void loadOrderList()}
      >
        <table className="stack-table records-table">
          <caption className="visually-hidden">Orders, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Order Number</th>
              <th scope="col">Ordered On</th>
              <th scope="col">Shipping</th>
              <th scope="col">Payment</th>
              <th scope="col">PO Number</th>
              <th scope="col">Total</th>
              <th scope="col">Balance Due</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((o) => (
              <tr key={o.id}>
                <th scope="row" data-label="Order Number">
                  <a href={getPagePath($router, "orderDetails", { id: String(o.id) })}>{o.orderNumber}</a>
                </th>
                <td data-label="Ordered On">
                  <Day at={o.createdAt} />
                </td>
                <td data-label="Shipping">
                  <ShippingProgressBadge progress={o.shippingProgress} />
                </td>
                <td data-label="Payment">
                  <StatusBadge kind="billing" status={o.billingStatus} />
                </td>
                <td data-label="PO Number">{poDisplay(o.poNumber)}</td>
                <td data-label="Total">
                  <Money amount={cents(o.grandTotal)} currency={o.currency} />
                </td>
                <td data-label="Balance Due">
                  <Money amount={cents(o.paymentBalanceDue)} currency={o.currency} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListStates>
    </section>
  );
}
