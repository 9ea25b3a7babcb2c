import { useStore } from "@nanostores/react";
import { useEffect, useMemo } from "react";
import type { AccountQuote } from "../../src/api/accountOrders.ts";
import { visitorZone } from "../../src/domain/dayText.ts";
import { ORDER_PREFIX } from "../../src/domain/order.ts";
import { $accountQuote, dismissRecordError, loadAccountQuote } from "../../src/stores/accountOrders.ts";
import {
  $orderTotals,
  $placedOrder,
  $quoteOrder,
  dismissOrderBanner,
  mayOrderQuotes,
  openQuoteOrder,
  orderOffer,
  orderPagePath,
  quoteStatusText,
  shippingLabel,
} from "../../src/stores/quoteOrder.ts";
import { askToVerifyShipping, openAddressDialog } from "../../src/stores/quoteAddress.ts";
import { $router, loadUnlessStarted } from "../../src/stores/router.ts";
import { AddressCards } from "../guest/AddressCards.tsx";
import { Day } from "../guest/Day.tsx";
import { Fact, Facts } from "../guest/Facts.tsx";
import { LineItems } from "../guest/LineItems.tsx";
import { Totals } from "../guest/Totals.tsx";
import { ErrorBanner } from "../ui/ErrorBanner.tsx";
import { AddressDialog } from "./quote/AddressDialog.tsx";
import { EditableAddresses } from "./quote/EditableAddresses.tsx";
import { PaymentSection } from "./quote/PaymentSection.tsx";
import { VerifyShippingDialog } from "./quote/VerifyShippingDialog.tsx";
import { RecordHead, RecordPending } from "./RecordPage.tsx";
import { ShareMenu } from "./ShareMenu.tsx";
import "./quote/quoteOrder.css";
import "../../src/styles/recordDetail.css";
import "../../src/styles/orders.css";

/**
 * /s/quotes/details/QUO-{n}: one quote of the active subscription. While it is open, a person
 * who may order it edits its addresses, picks the shipping and pays by card or on terms.
 */
export default function QuoteDetails() {
  const page = useStore($router);
  const param = page?.route === "quoteDetails" ? page.params.number : "";
  const state = useStore($accountQuote);
  useEffect(() => loadUnlessStarted($router.get(), () => void loadAccountQuote(param)), [param]);
  if (state.status !== "ready")
    return (
      <RecordPending title="Quote" to="quotes" state={state} onDismiss={() => dismissRecordError("quote")} />
    );
  return <QuoteView quote={state.record} />;
}

function QuoteView({ quote }: { quote: AccountQuote }) {
  const offer = useMemo(() => orderOffer(quote, mayOrderQuotes()), [quote]);
  const placedAny = useStore($placedOrder);
  // Placed from this page (the order's page then took over): the quote is closed now and links to it.
  const placed = placedAny?.quoteId === quote.id ? placedAny : null;
  const orderId = placed?.orderId ?? quote.orderId;
  const ordering = offer.kind === "order";
  const editing = ordering && !placed;
  useEffect(() => {
    if (!ordering) return;
    openQuoteOrder(quote);
    if (quote.needsShipping && quote.shippingAddress) askToVerifyShipping();
  }, [quote, ordering]);
  const specialist = quote.productSpecialist;
  const phone = [specialist.phone, specialist.phoneExtension && `ext. ${specialist.phoneExtension}`]
    .filter(Boolean)
    .join(" ");
  return (
    <section className="account-record">
      <RecordHead
        title={`Quote ${quote.quoteNumber}`}
        to="quotes"
        actions={
          <ShareMenu
            target={{ kind: "quote", id: quote.id, number: quote.quoteNumber, open: quote.isOpen }}
          />
        }
      />
      {ordering && <OrderBanner />}
      <Facts label="Quote summary">
        <Fact name="Quote Number">{quote.quoteNumber}</Fact>
        <Fact name="Quoted On">
          <Day at={quote.createdAt} />
        </Fact>
        <Fact name="Status">{quoteStatusText(quote, visitorZone(), placed !== null)}</Fact>
        {orderId !== null && (
          <Fact name="Order">
            <a href={orderPagePath(orderId)}>
              {ORDER_PREFIX}
              {orderId}
            </a>
          </Fact>
        )}
        <Fact name="Product Specialist">{specialist.name || "-"}</Fact>
        <Fact name="Specialist Phone">{phone || "-"}</Fact>
      </Facts>
      {ordering ? (
        <EditableAddresses editable={editing} />
      ) : (
        <AddressCards shipping={quote.shippingAddress} billing={quote.billingAddress} />
      )}
      <LineItems items={quote.quoteLineItemList} currency={quote.currency} />
      {ordering ? <OrderTotals /> : <QuoteTotals quote={quote} />}
      {editing && <ShippingNote />}
      {offer.kind === "reason" && <p className="muted">{offer.message}</p>}
      {editing && (
        <>
          <PaymentSection />
          <AddressDialog />
          <VerifyShippingDialog />
        </>
      )}
    </section>
  );
}

/** The quote's totals as quoted. */
function QuoteTotals({ quote }: { quote: AccountQuote }) {
  return (
    <Totals
      currency={quote.currency}
      rows={[
        ["Subtotal", quote.subtotalCents],
        ["Tax", quote.taxCents],
        ["Shipping", quote.shippingCostCents],
        ["Grand Total", quote.grandTotalCents],
      ]}
    />
  );
}

/** The totals as the order would be placed: the chosen shipping and the server's tax for it. */
function OrderTotals() {
  const totals = useStore($orderTotals);
  const currency = useStore($quoteOrder).quote?.currency ?? 1;
  if (!totals) return null;
  return (
    <Totals
      currency={currency}
      rows={[
        ["Subtotal", totals.subtotal],
        ["Tax", totals.tax],
        [shippingLabel(totals.shippingName), totals.shipping],
        ["Grand Total", totals.grandTotal],
      ]}
    />
  );
}

/**
 * A polite line when the shipping price is not the quoted or shown one (after Confirm
 * Address or a new address), with a way to pick another of the offered options.
 */
function ShippingNote() {
  const note = useStore($quoteOrder).shippingNote;
  return (
    <div className="shipping-note">
      <p role="status">{note ?? ""}</p>
      {note && (
        <button type="button" className="secondary small" onClick={() => openAddressDialog("shipping")}>
          Choose Another Shipping Option
        </button>
      )}
    </div>
  );
}

/** 'Unexpected Error retrieving quote.' when the tax could not be had; dismissible. */
function OrderBanner() {
  const banner = useStore($quoteOrder).banner;
  return banner ? <ErrorBanner message={banner} onDismiss={dismissOrderBanner} /> : null;
}
