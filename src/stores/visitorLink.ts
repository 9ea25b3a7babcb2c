import { atom } from "nanostores";
import {
  ALREADY_CONFIRMED,
  confirmLink,
  confirmSubscription,
  unsubscribe,
  unsubscribeLink,
} from "../api/visitors.ts";
import type { FieldError } from "../api/errors.ts";
import { formStore, formTask } from "./formTask.ts";
import { call, errorsOf } from "./http.ts";
import { queryParam } from "./navigate.ts";
import { publicReportPath } from "../domain/paths.ts";

/*
 * /visitors/confirm?token= and /visitors/unsubscribe?token=: the pages a visitor's emailed links
 * open. Opening one changes nothing (a mail scanner that follows links confirms or ends
 * nothing); the page's button does.
 */

export type VisitorLinkAction = "confirm" | "unsubscribe";
export type VisitorLinkState =
  | { step: "checking" }
  /** `reportPath`: the report an expired confirm link names, to subscribe again there. */
  | { step: "broken"; errors: FieldError[]; reportPath?: string | undefined }
  | { step: "form"; token: string; reportName: string; email: string }
  /** `reportPath`: the shared report's page, the confirmed or unsubscribed page's way back to it. */
  | { step: "done"; message: string; reportPath?: string | undefined; already?: boolean };

export const $visitorLink = atom<VisitorLinkState>({ step: "checking" });
export const $visitorLinkForm = formStore();

const READ = { confirm: confirmLink, unsubscribe: unsubscribeLink } as const;
const ACT = { confirm: confirmSubscription, unsubscribe } as const;

/** Reads what the link is for. */
export async function checkVisitorLink(action: VisitorLinkAction) {
  const token = queryParam("token") ?? "";
  try {
    const { reportName, email, confirmed, reportPath } = await call(READ[action], { token });
    // A confirm link opened again: no button to press, the address is subscribed already.
    if (confirmed) $visitorLink.set({ step: "done", message: ALREADY_CONFIRMED, reportPath, already: true });
    else $visitorLink.set({ step: "form", token, reportName, email });
  } catch (e) {
    // A confirm link names its report (server/services/visitorMail.ts); older ones do not.
    const report = action === "confirm" ? queryParam("report") : null;
    const reportPath = report ? publicReportPath(report) : undefined;
    $visitorLink.set({ step: "broken", errors: errorsOf(e), reportPath });
  }
}

/** The button: confirms or ends the subscription. */
export async function actOnVisitorLink(action: VisitorLinkAction) {
  const state = $visitorLink.get();
  if (state.step !== "form") return;
  await formTask($visitorLinkForm, async () => {
    const answer = await call(ACT[action], { token: state.token });
    $visitorLink.set({ step: "done", ...answer });
  });
}
