import type { ReactNode } from "react";
import type { WritableAtom } from "nanostores";
import { useStore } from "@nanostores/react";
import { getPagePath } from "@nanostores/router";
import { $router } from "../../src/stores/router.ts";
import { useId } from "react";
import type { Listed } from "../../src/stores/accountOrders.ts";
import { EmptyState } from "../ui/EmptyState.tsx";
import { Money } from "../ui/Money.tsx";
import { cents } from "../../src/domain/brand.ts";
import type { BillingStatus } from "../../src/domain/order.ts";
import { shownBalance } from "../../src/domain/orderShown.ts";

/** The search box of a list: it narrows the rows by number as the person types. */
export function NumberSearch({
  $search,
  label,
  example,
}: {
  $search: WritableAtom<string>;
  label: string;
  example: string;
}) {
  const search = useStore($search);
  const id = useId();
  return (
    <div className="list-search">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="search"
        placeholder={example}
        value={search}
        onChange={(e) => $search.set(e.currentTarget.value)}
      />
    </div>
  );
}

/**
 * A list page's states: loading, failed (with Try again), empty, no match for the search, or
 * the table; and a note when the server capped the list.
 */
export function ListStates<T>(props: {
  state: Listed<T>;
  shown: number;
  noun: string;
  emptyText: string;
  onRetry: () => void;
  children: ReactNode;
}) {
  const { state, shown, noun } = props;
  if (state.status === "loading") return <p aria-busy="true">Loading {noun}...</p>;
  if (state.status === "failed")
    return (
      <div role="alert" className="load-failed">
        {state.message}{" "}
        <button type="button" className="secondary" onClick={props.onRetry}>
          Try again
        </button>
      </div>
    );
  if (!state.list.length) return <EmptyState title={`No ${noun} yet`} text={props.emptyText} />;
  return (
    <>
      {shown ? props.children : <p role="status">No {noun} match that number.</p>}
      {state.truncated && (
        <p className="muted" role="note">
          Showing the newest {state.limit} {noun}. Search finds numbers among these.
        </p>
      )}
    </>
  );
}

/** A column of a records table: its heading and its cell; the first column heads its row. */
export interface Column<T> {
  head: string;
  cell: (row: T) => ReactNode;
}

/**
 * A list page of quotes or orders: title with the link to the other list, the number search,
 * the list's states, and the table (stacked into cards on a phone).
 */
export function RecordsList<T extends { id: number }>(props: {
  title: string;
  other: { to: "orders" | "quotes"; label: string };
  search: { $search: WritableAtom<string>; label: string; example: string };
  state: Listed<T>;
  shown: readonly T[];
  emptyText: string;
  onRetry: () => void;
  columns: readonly Column<T>[];
}) {
  const titleId = useId();
  const [first, ...rest] = props.columns;
  const noun = props.title.toLowerCase();
  return (
    <section className="records-page" aria-labelledby={titleId}>
      <header className="page-head">
        <h1 id={titleId}>{props.title}</h1>
        <a href={getPagePath($router, props.other.to)}>{props.other.label}</a>
      </header>
      <NumberSearch {...props.search} />
      <ListStates
        state={props.state}
        shown={props.shown.length}
        noun={noun}
        emptyText={props.emptyText}
        onRetry={props.onRetry}
      >
        <table className="stack-table records-table">
          <caption className="visually-hidden">{props.title}, newest first</caption>
          <thead>
            <tr>
              {props.columns.map((c) => (
                <th key={c.head} scope="col">
                  {c.head}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.shown.map((row) => (
              <tr key={row.id}>
                {first && (
                  <th scope="row" data-label={first.head}>
                    {first.cell(row)}
                  </th>
                )}
                {rest.map((c) => (
                  <td key={c.head} data-label={c.head}>
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ListStates>
    </section>
  );
}

/**
 * An order's balance as a list row or the order page shows it: the amount due, or for an
 * order that owes nothing whatever its arithmetic (cancelled, refunded, closed) its status.
 */
export function OrderBalance({
  order,
}: {
  order: { billingStatus: BillingStatus; paymentBalanceDueCents: number; currency: number };
}) {
  const shown = shownBalance(order);
  if (shown.kind === "status") return <span className="muted">{shown.status}</span>;
  return <Money amount={cents(shown.cents)} currency={order.currency} />;
}

/**
 * The flag a record carries once the server sends it (docs/decisions.md: an order copies
 * its quote's needsShipping); undefined until then.
 */
export function needsShippingOf(record: object): boolean | undefined {
  const flag = (record as { needsShipping?: unknown }).needsShipping;
  return typeof flag === "boolean" ? flag : undefined;
}

/** "Nothing to ship" in place of a shipping tracker (a subscription, a data service). */
export function NothingToShip() {
  return <span className="muted nothing-to-ship">Nothing to ship</span>;
}
