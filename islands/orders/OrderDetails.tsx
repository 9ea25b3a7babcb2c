import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import type { AccountOrder } from "../../src/api/accountOrders.ts";
import { poDisplay } from "../../src/domain/order.ts";
import { remainingItemsNoted, shipsNothing } from "../../src/domain/orderShown.ts";
import {
  $accountOrder,
  accountReceiptLink,
  dismissRecordError,
  loadAccountOrder,
} from "../../src/stores/accountOrders.ts";
import { $paidOrderId, shownBillingStatus } from "../../src/stores/orderPay.ts";
import { $placedOrder } from "../../src/stores/quotePlaced.ts";
import { $router, loadUnlessStarted } from "../../src/stores/router.ts";
import type { Shipment } from "../../src/api/shipments.ts";
import { AddressCards } from "../guest/AddressCards.tsx";
import { Day } from "../guest/Day.tsx";
import { Fact, Facts } from "../guest/Facts.tsx";
import { LineItems } from "../guest/LineItems.tsx";
import { PaymentHistory } from "../guest/PaymentHistory.tsx";
import { OrderTotals } from "../guest/Totals.tsx";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import { NothingToShip, OrderBalance, needsShippingOf } from "./ListParts.tsx";
import { OrderPay, PaymentReceived } from "./OrderPay.tsx";
import { OrderPlaced } from "./OrderPlaced.tsx";
import { OrderShipments } from "./OrderShipments.tsx";
import { RecordHead, RecordPending } from "./RecordPage.tsx";
import { ShareMenu } from "./ShareMenu.tsx";
import { ShippingProgress } from "./ShippingProgress.tsx";
import "../../src/styles/recordDetail.css";
import "../../src/styles/orders.css";

/** /s/order/details/{id} and /s/order/details/ORD-{id}-{validationId}: one order and the payment of its balance. */
export default function OrderDetails() {
  const page = useStore($router);
  const param = page?.route === "orderDetails" ? page.params.id : "";
  const state = useStore($accountOrder);
  // The app asked for the first page's order already (src/stores/router.ts): not twice.
  useEffect(() => loadUnlessStarted($router.get(), () => void loadAccountOrder(param)), [param]);
  if (state.status !== "ready")
    return (
      <RecordPending title="Order" to="orders" state={state} onDismiss={() => dismissRecordError("order")} />
    );
  return <OrderView order={state.record.order} shipments={state.record.shipments} />;
}

function OrderView({ order, shipments }: { order: AccountOrder; shipments: Shipment[] | null }) {
  const currency = order.currency;
  const paidOrderId = useStore($paidOrderId);
  const placed = useStore($placedOrder);
  const nothingToShip = shipsNothing({
    needsShipping: needsShippingOf(order),
    shippingAddress: order.shippingAddress,
    shippingAmount: order.shippingAmountCents,
    shipmentCount: shipments?.length ?? 0,
  });
  return (
    <section className="account-record">
      <RecordHead
        title={`Order ${order.orderNumber}`}
        to="orders"
        actions={
          <ShareMenu
            target={{
              kind: "order",
              id: order.id,
              number: order.orderNumber,
              open: true,
              publicPath: order.publicPath,
            }}
          />
        }
      />
      {placed?.orderId === order.id && <OrderPlaced key={placed.orderId} placed={placed} />}
      <Facts label="Order summary">
        <Fact name="Order Number">{order.orderNumber}</Fact>
        <Fact name="Ordered On">
          <Day at={order.createdAt} />
        </Fact>
        <Fact name="Shipping Status">
          {nothingToShip ? <NothingToShip /> : <ShippingProgress progress={order.shippingProgress} />}
        </Fact>
        <Fact name="PO Number">{poDisplay(order.poNumber)}</Fact>
        <Fact name="Payment Status">
          <StatusBadge kind="billing" status={shownBillingStatus(order, paidOrderId)} />
        </Fact>
        <Fact name="Referral Code">{order.referrerCode || "-"}</Fact>
        <Fact name="Balance Due">
          <OrderBalance order={order} />
        </Fact>
        <Fact name="Due Date">{order.dueDate ? <Day at={order.dueDate} /> : "-"}</Fact>
      </Facts>
      <PaymentReceived orderId={order.id} />
      {remainingItemsNoted({ ...order, shipsNothing: nothingToShip }) && (
        <p className="remaining-note" role="note">
          {order.unshippedItems === 1 ? "1 item has" : `${order.unshippedItems} items have`} not shipped yet;
          they will ship as they become available.
        </p>
      )}
      {!nothingToShip && !(order.shippingProgress === "cancelled" && shipments?.length === 0) && (
        <OrderShipments shipments={shipments} />
      )}
      <AddressCards shipping={order.shippingAddress} billing={order.billingAddress} />
      <LineItems items={order.orderLineItemList} currency={currency} />
      <OrderTotals order={order} />
      <PaymentHistory
        payments={order.payments}
        currency={currency}
        receiptHref={(paymentId) => accountReceiptLink(order.id, paymentId)}
      />
      <OrderPay order={order} />
    </section>
  );
}
