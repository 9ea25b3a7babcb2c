import { NOT_YOUR_RECORD, type RecordKind } from "../domain/publicRecord.ts";

/**
 * A visitor signed in to another account: the page's invitation to log in or register gives
 * way to whom to ask (docs/decisions.md, "Who may join a subscription").
 */
export function notYours(kind: RecordKind) {
  const intro = document.querySelector<HTMLElement>(".record-intro");
  if (!intro) return;
  intro.textContent = NOT_YOUR_RECORD[kind];
  intro.setAttribute("role", "status");
}
