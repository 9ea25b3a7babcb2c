import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { PATHS } from "../src/domain/paths.ts";
import type { RecordKind } from "../src/domain/publicRecord.ts";
import { $guestPay, dismissLoadError, openGuestPay, PAGE_TITLE } from "../src/stores/guestPay.ts";
import { OrderPay } from "./guest/OrderPay.tsx";
import { QuotePay } from "./guest/QuotePay.tsx";
import { ErrorBanner } from "./ui/ErrorBanner.tsx";

/** /p/order/pay-as-guest/{ref} and /p/quote/pay-as-guest/{token}: the record and its card form. */
export default function GuestPayPage({ kind }: { kind: RecordKind }) {
  const s = useStore($guestPay);
  useEffect(() => void openGuestPay(kind), [kind]);
  if (s.step === "ready")
    return s.record.kind === "order" ? <OrderPay record={s.record} /> : <QuotePay record={s.record} />;
  return (
    <section aria-labelledby="guest-pay-heading">
      <h1 id="guest-pay-heading">{PAGE_TITLE[kind]}</h1>
      {s.step === "loading" ? (
        <p aria-busy="true">Loading the {kind}...</p>
      ) : s.step === "numberOnly" ? (
        <NumberOnly kind={kind} number={s.number} />
      ) : (
        <>
          {s.message && <ErrorBanner message={s.message} onDismiss={dismissLoadError} />}
          <p>
            Check the link you were sent, or find the {kind} with the{" "}
            <a href={PATHS.orderSearch}>Quote and Order Lookup</a>.
          </p>
        </>
      )}
    </section>
  );
}

/**
 * A payment page opened by the record's number alone: not an error. Numbers are sequential,
 * so the page that takes a payment opens only from the record's private link: the one in
 * the email, or the one Order Lookup finds with the contact name.
 */
function NumberOnly({ kind, number }: { kind: RecordKind; number: string }) {
  const summary = kind === "order" ? null : `/p/quote/${number}`;
  return (
    <div role="status">
      <p>
        {number} is the {kind}'s number. Its payment page opens from the {kind}'s own link, which keeps it
        private: the link in the email we sent about this {kind}.
      </p>
      <p>
        No email to hand? Find the {kind} with the <a href={PATHS.orderSearch}>Quote and Order Lookup</a> by
        its number and the contact name on it; the page it opens has Pay as Guest.
        {summary && (
          <>
            {" "}
            The quote's summary is at <a href={summary}>{number}</a>.
          </>
        )}
      </p>
    </div>
  );
}
