import { getPagePath } from "@nanostores/router";
import type { ReactNode } from "react";
import { $router } from "../../src/stores/router.ts";
import { ErrorBanner } from "../ui/ErrorBanner.tsx";

/** Back to List: quotes go back to the quote list, orders to the order list (spec section 1). */
export function BackToList({ to }: { to: "orders" | "quotes" }) {
  return (
    <a className="back-to-list" href={getPagePath($router, to)}>
      Back to List
    </a>
  );
}

/** A detail page while its record loads or after it failed: the banner and Back to List. */
export function RecordPending(props: {
  title: string;
  to: "orders" | "quotes";
  state: { status: "loading" } | { status: "failed"; message: string | null; hint?: string };
  onDismiss: () => void;
}) {
  return (
    <section className="account-record">
      <h1>{props.title}</h1>
      {props.state.status === "loading" ? (
        <p aria-busy="true">Loading...</p>
      ) : (
        <>
          {props.state.message && <ErrorBanner message={props.state.message} onDismiss={props.onDismiss} />}
          {props.state.hint && <p className="record-hint">{props.state.hint}</p>}
        </>
      )}
      <BackToList to={props.to} />
    </section>
  );
}

/** The top of a detail page: its number as the title, its actions (the Share menu) and Back to List. */
export function RecordHead({
  title,
  to,
  actions,
}: {
  title: string;
  to: "orders" | "quotes";
  actions?: ReactNode;
}) {
  return (
    <header className="page-head">
      <h1>{title}</h1>
      <div className="page-head-actions">
        <BackToList to={to} />
        {actions}
      </div>
    </header>
  );
}
