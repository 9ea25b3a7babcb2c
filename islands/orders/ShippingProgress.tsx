import type { ShippingProgress as Progress } from "../../src/api/accountOrders.ts";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import { Check } from "../ui/Icon.tsx";

const STEPS = ["Received", "Shipped", "Delivered"] as const;

/** How many steps of the line are done; null for the statuses shown as a single badge. */
const DONE: Record<Progress, number | null> = {
  received: 1,
  // Spec section 4: Hold looks like Received.
  hold: 1,
  shipped: 2,
  delivered: 3,
  partial: null,
  cancelled: null,
  completed: null,
  unknown: null,
};

/** A list row's shipping status: one badge (Hold reads Received). */
export function ShippingProgressBadge({ progress }: { progress: Progress }) {
  return <StatusBadge kind="shipping" status={progress} />;
}

/**
 * The order page's shipping progress (spec section 4): Received, Shipped, Delivered as a line
 * with the completed steps ticked; Partial, Cancelled and Complete as single badges.
 */
export function ShippingProgress({ progress }: { progress: Progress }) {
  const done = DONE[progress];
  if (done === null) return <ShippingProgressBadge progress={progress} />;
  return (
    <ol className="progress-line" aria-label="Shipping progress">
      {STEPS.map((step, i) => (
        <li key={step} className={i < done ? "done" : undefined}>
          <span className="progress-dot" aria-hidden="true">
            {i < done && <Check size="0.9em" />}
          </span>
          {step}
          {i < done && <span className="visually-hidden"> (done)</span>}
        </li>
      ))}
    </ol>
  );
}
