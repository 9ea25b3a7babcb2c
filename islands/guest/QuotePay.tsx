import type { FullQuote } from "../../src/api/quotes.ts";
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
function Specialist({ specialist }: { specialist: FullQuote["productSpecialist"] }) {
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
const statusLabel = (q: FullQuote) =>
  quoteStatusLabel(
    { status: q.status, expiresAt: q.expiresAt === null ? null : epochSeconds(q.expiresAt) },
    visitorZone(),
  );

/** "Shipping" with the carrier and method when the quote names them. */
const shippingLabel = (q: FullQuote) =>
  q.shippingDetailsString ? `Shipping (${q.shippingDetailsString})` : "Shipping";

/** /p/quote/pay-as-guest/{token}: the full quote, read-only, and ordering it by card. */
export function QuotePay({ record }: { record: Extract<GuestRecord, { kind: "quote" }> }) {
  const { quote } = record;
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
              <Specialist specialist={quote.productSpecialist} />
            </Fact>
          </Facts>
          <AddressCards shipping={quote.shippingAddress} billing={quote.billingAddress} />
          <LineItems items={quote.quoteLineItemList} currency={quote.currency} />
          <Totals
            currency={quote.currency}
            rows={[
              ["Subtotal", quote.subtotalCents],
              ["Tax", quote.taxCents],
              [shippingLabel(quote), quote.shippingCostCents],
              ["Grand Total", quote.grandTotalCents],
            ]}
          />
        </div>
        <PaySection record={record} />
      </div>
    </>
  );
}
