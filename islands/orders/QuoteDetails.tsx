import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import type { AccountQuote } from "../../src/api/accountOrders.ts";
import { epochSeconds } from "../../src/domain/brand.ts";
import { visitorZone } from "../../src/domain/dayText.ts";
import { quoteStatusLabel } from "../../src/domain/quote.ts";
import { $accountQuote, dismissRecordError, loadAccountQuote } from "../../src/stores/accountOrders.ts";
import { $router } from "../../src/stores/router.ts";
import { AddressCards } from "../guest/AddressCards.tsx";
import { Day } from "../guest/Day.tsx";
import { Fact, Facts } from "../guest/Facts.tsx";
import { LineItems } from "../guest/LineItems.tsx";
import { Totals } from "../guest/Totals.tsx";
import { RecordHead, RecordPending } from "./RecordPage.tsx";
import "../../src/styles/recordDetail.css";
import "../../src/styles/orders.css";

/** /s/quotes/details/QUO-{n}: one quote of the active subscription, read-only for now. */
export default function QuoteDetails() {
  const page = useStore($router);
  const param = page?.route === "quoteDetails" ? page.params.number : "";
  const state = useStore($accountQuote);
  useEffect(() => void loadAccountQuote(param), [param]);
  if (state.status !== "ready")
    return (
      <RecordPending title="Quote" to="quotes" state={state} onDismiss={() => dismissRecordError("quote")} />
    );
  return <QuoteView quote={state.record} />;
}

function QuoteView({ quote }: { quote: AccountQuote }) {
  const { detail } = quote;
  const specialist = detail.productSpecialist;
  const phone = [specialist.phone, specialist.phoneExtension && `ext. ${specialist.phoneExtension}`]
    .filter(Boolean)
    .join(" ");
  const expiresAt = quote.expiresAt === null ? null : epochSeconds(quote.expiresAt);
  return (
    <section className="account-record">
      <RecordHead title={`Quote ${quote.quoteNumber}`} to="quotes" />
      <Facts label="Quote summary">
        <Fact name="Quote Number">{quote.quoteNumber}</Fact>
        <Fact name="Quoted On">
          <Day at={quote.createdAt} />
        </Fact>
        <Fact name="Status">{quoteStatusLabel({ status: quote.status, expiresAt }, visitorZone())}</Fact>
        <Fact name="Product Specialist">{specialist.name || "-"}</Fact>
        <Fact name="Specialist Phone">{phone || "-"}</Fact>
      </Facts>
      <AddressCards shipping={detail.shippingAddress} billing={detail.billingAddress} />
      <LineItems items={detail.lineItems} currency={detail.currency} />
      <Totals
        currency={detail.currency}
        rows={[
          ["Subtotal", detail.subtotal],
          ["Tax", detail.tax],
          ["Shipping", detail.shippingCost],
          ["Grand Total", detail.grandTotal],
        ]}
      />
      {/* The address dialog, shipping rates, tax and the payment form (card or purchase order) come with the next slice of issue 11; closed quotes will show none of them. */}
    </section>
  );
}
