import { useStore } from "@nanostores/react";
import { cents } from "../../src/domain/brand.ts";
import { poDisplay } from "../../src/domain/order.ts";
import {
  $paymentDone,
  closePaymentDone,
  type GuestRecord,
  PAGE_TITLE,
  receiptLink,
} from "../../src/stores/guestPay.ts";
import { PaymentComplete } from "../payments/PaymentComplete.tsx";
import { Money } from "../ui/Money.tsx";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import { AddressCards } from "./AddressCards.tsx";
import { Day } from "./Day.tsx";
import { Fact, Facts } from "./Facts.tsx";
import { LineItems } from "./LineItems.tsx";
import { PaymentHistory } from "./PaymentHistory.tsx";
import { PaySection } from "./PaySection.tsx";
import { Shipments } from "./Shipments.tsx";
import { OrderTotals } from "./Totals.tsx";

/** /p/order/pay-as-guest/{ref}: the order, read-only, and the payment of its balance. */
export function OrderPay({ record }: { record: Extract<GuestRecord, { kind: "order" }> }) {
  const { order } = record;
  const done = useStore($paymentDone);
  const currency = order.currency;
  return (
    <>
      <h1>{PAGE_TITLE.order}</h1>
      <div className="pay-layout">
        <div className="pay-record">
          <Facts label="Order summary">
            <Fact name="Order Number">{order.orderNumber}</Fact>
            <Fact name="Order Placed On">
              <Day at={order.createdAt} />
            </Fact>
            <Fact name="Billing Status">
              <StatusBadge kind="billing" status={order.billingStatus} />
            </Fact>
            <Fact name="Shipping Status">
              <StatusBadge kind="shipping" status={order.statusType} />
            </Fact>
            <Fact name="PO Number">{poDisplay(order.poNumber)}</Fact>
            <Fact name="Balance Due">
              <Money amount={cents(order.paymentBalanceDueCents)} currency={currency} />
            </Fact>
            <Fact name="Due Date">{order.dueDate ? <Day at={order.dueDate} /> : "-"}</Fact>
          </Facts>
          <AddressCards shipping={order.shippingAddress} billing={order.billingAddress} />
          <LineItems items={order.orderLineItemList} currency={currency} />
          <OrderTotals order={order} />
          <Shipments shipments={record.shipments} />
          <PaymentHistory
            payments={order.payments}
            currency={currency}
            receiptHref={(id) => receiptLink(record.ref, id)}
          />
        </div>
        <PaySection record={record} />
      </div>
      <PaymentComplete done={done} onClose={closePaymentDone} />
    </>
  );
}
