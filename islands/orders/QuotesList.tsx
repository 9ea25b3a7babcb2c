import { useStore } from "@nanostores/react";
import { getPagePath } from "@nanostores/router";
import type { QuoteSummary } from "../../src/api/accountOrders.ts";
import { cents, epochSeconds } from "../../src/domain/brand.ts";
import { visitorZone } from "../../src/domain/dayText.ts";
import { quoteStatusLabel } from "../../src/domain/quote.ts";
import { $quoteList, $quoteSearch, $shownQuotes, loadQuoteList } from "../../src/stores/accountOrders.ts";
import { $router } from "../../src/stores/router.ts";
import { Day } from "../guest/Day.tsx";
import { Money } from "../ui/Money.tsx";
import { RecordsList, type Column } from "./ListParts.tsx";
import "../../src/styles/orders.css";

const COLUMNS: Column<QuoteSummary>[] = [
  {
    head: "Quote Number",
    cell: (q) => (
      <a href={getPagePath($router, "quoteDetails", { number: q.quoteNumber })}>{q.quoteNumber}</a>
    ),
  },
  { head: "Quoted On", cell: (q) => <Day at={q.createdAt} /> },
  {
    head: "Status",
    cell: (q) =>
      quoteStatusLabel(
        { status: q.status, expiresAt: q.expiresAt === null ? null : epochSeconds(q.expiresAt) },
        visitorZone(),
      ),
  },
  { head: "Total", cell: (q) => <Money amount={cents(q.grandTotalCents)} currency={q.currency} /> },
];

/** /s/orders/quotes/list: the active subscription's quotes, newest first, searchable by number. */
export default function QuotesList() {
  return (
    <RecordsList
      title="Quotes"
      other={{ to: "orders", label: "Orders" }}
      search={{ $search: $quoteSearch, label: "Search by quote number", example: "QUO-12345" }}
      state={useStore($quoteList)}
      shown={useStore($shownQuotes)}
      emptyText="Quotes your product specialist prepares for you appear here."
      onRetry={() => void loadQuoteList()}
      columns={COLUMNS}
    />
  );
}
