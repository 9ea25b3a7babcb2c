import type { RecordKind } from "../domain/publicRecord.ts";

/**
 * What a public record page says to a visitor signed in to another account, in place of its
 * invitation to log in or register (docs/decisions.md, "Who may join a subscription"). Kept
 * here, not in domain/publicRecord.ts: the pages that share that module (sign-in, device)
 * would carry the text in their byte budgets.
 */
export const NOT_YOUR_RECORD: Record<RecordKind, string> = {
  order:
    "You are signed in, but this order is not in your account. If it belongs to your organization, ask your administrator to grant you access.",
  quote:
    "You are signed in, but this quote is not in your account. If it belongs to your organization, ask your administrator to grant you access.",
};

/** Puts NOT_YOUR_RECORD in place of the page's invitation to log in or register. */
export function notYours(kind: RecordKind) {
  const intro = document.querySelector<HTMLElement>(".record-intro");
  if (!intro) return;
  intro.textContent = NOT_YOUR_RECORD[kind];
  intro.setAttribute("role", "status");
}
