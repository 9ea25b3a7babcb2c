import { getPagePath } from "@nanostores/router";
import { useStore } from "@nanostores/react";
import { cents, epochSeconds } from "../../src/domain/brand.ts";
import { visitorZone } from "../../src/domain/dayText.ts";
import { quoteStatusLabel } from "../../src/domain/quote.ts";
import { $quoteList, $quoteSearch, $shownQuotes, loadQuoteList } from "../../src/stores/accountOrders.ts";
import { $router } from "../../src/stores/router.ts";
import { Day } from "../guest/Day.tsx";
import { Money } from "../ui/Money.tsx";
import { ListStates, NumberSearch } from "./ListParts.tsx";
import "../../src/styles/orders.css";

/** /s/orders/quotes/list: the active subscription's quotes, newest first, searchable by number. */
export default function QuotesList() {
  const state = useStore($quoteList);
  const shown = useStore($shownQuotes);
  const zone = visitorZone();
  return (
    <section className="records-page" aria-labelledby="quotes-title">
      <header className="page-head">
        <h1 id="quotes-title">Quotes</h1>
        <a href={getPagePath($router, "orders")}>Orders</a>
      </header>
      <NumberSearch $search={$quoteSearch} label="Search by quote number" example="QUO-12345" />
      <ListStates
        state={state}
        shown={shown.length}
        noun="quotes"
        emptyText="Quotes your product specialist prepares for you appear here."
        onRetry={() => void loadQuoteList()}
      >
        <table className="stack-table records-table">
          <caption className="visually-hidden">Quotes, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Quote Number</th>
              <th scope="col">Quoted On</th>
              <th scope="col">Status</th>
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((q) => (
              <tr key={q.id}>
                <th scope="row" data-label="Quote Number">
                  <a href={getPagePath($router, "quoteDetails", { number: q.quoteNumber })}>
                    {q.quoteNumber}
                  </a>
                </th>
                <td data-label="Quoted On">
                  <Day at={q.createdAt} />
                </td>
                <td data-label="Status">
                  {quoteStatusLabel(
                    { status: q.status, expiresAt: q.expiresAt === null ? null : epochSeconds(q.expiresAt) },
                    zone,
                  )}
                </td>
                <td data-label="Total">
                  <Money amount={cents(q.grandTotal)} currency={q.currency} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListStates>
    </section>
  );
}
