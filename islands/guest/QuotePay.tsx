import type { QuoteDetail, QuoteDetails } from "../../src/api/quotes.ts";
import { epochSeconds } from "../../src/domain/brand.ts";
import { visitorZone } from "../../src/domain/dayText.ts";
import { quoteStatusLabel } from "../../src/domain/quote.ts";
import { type GuestRecord, PAGE_TITLE } from "../../src/stores/guestPay.ts";
import { AddressCards } from "./AddressCards.tsx";
import { Day } from "./Day.tsx";
import { Fact, Facts } from "./Facts.tsx";
import { LineItems } from "./LineItems.tsx";
import { PaySection } from "./PaySection.tsx";
import { Totals } from "./Totals.tsx";

/** The product specialist: name, phone (a link to call) and extension, as far as known. */
function Specialist({ specialist }: { specialist: QuoteDetail["productSpecialist"] }) {
  const { name, phone, phoneExtension } = specialist;
  if (!name && !phone) return <>-</>;
  return (
    <>
      {name}
      {phone && (
        <>
          {name && <br />}
          <a href={`tel:${phone.replace(/[^\d+]/g, "")}`}>{phone}</a>
          {phoneExtension && ` ext. ${phoneExtension}`}
        </>
      )}
    </>
  );
}

/** 'Expires at {MMM DD, YYYY}' (in the visitor's zone) or 'Closed'. */
const statusLabel = (q: QuoteDetails) =>
  quoteStatusLabel(
    { status: q.status, expiresAt: q.expiresAt === null ? null : epochSeconds(q.expiresAt) },
    visitorZone(),
  );

/** "Shipping" with the carrier and method when the quote names them. */
const shippingLabel = (d: QuoteDetail) => {
  const how = [d.shippingCarrier, d.shippingMethod].filter(Boolean).join(" ");
  return how ? `Shipping (${how})` : "Shipping";
};

/** /p/quote/pay-as-guest/{token}: the full quote, read-only, and ordering it by card. */
export function QuotePay({ record }: { record: Extract<GuestRecord, { kind: "quote" }> }) {
  const { quote, detail } = record;
  return (
    <>
      <h1>{PAGE_TITLE.quote}</h1>
      <div className="pay-layout">
        <div className="pay-record">
          <Facts label="Quote summary">
            <Fact name="Quote Number">{quote.quoteNumber}</Fact>
            <Fact name="Created">
              <Day at={quote.createdAt} />
            </Fact>
            <Fact name="Status">{statusLabel(quote)}</Fact>
            <Fact name="Product Specialist">
              <Specialist specialist={detail.productSpecialist} />
            </Fact>
          </Facts>
          <AddressCards shipping={detail.shippingAddress} billing={detail.billingAddress} />
          <LineItems items={detail.lineItems} currency={detail.currency} />
          <Totals
            currency={detail.currency}
            rows={[
              ["Subtotal", detail.subtotal],
              ["Tax", detail.tax],
              [shippingLabel(detail), detail.shippingCost],
              ["Grand Total", detail.grandTotal],
            ]}
          />
        </div>
        <PaySection record={record} />
      </div>
    </>
  );
}
