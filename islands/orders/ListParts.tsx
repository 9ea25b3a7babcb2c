import type { ReactNode } from "react";
import type { WritableAtom } from "nanostores";
import { useStore } from "@nanostores/react";
import { useId } from "react";
import type { Listed } from "../../src/stores/accountOrders.ts";
import { EmptyState } from "../ui/EmptyState.tsx";

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
