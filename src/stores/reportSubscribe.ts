import { atom } from "nanostores";
import { readInlineConfig } from "./inlineConfig.ts";
import { here } from "./navigate.ts";

/*
 * The public report's "Tell me when something goes wrong" form (issue 36). Plain fetch, no ky or
 * zod: it rides on the report page, whose first script has a 15 KB budget.
 */

export type SubscribeState =
  | { step: "hidden" }
  | { step: "form"; busy: boolean; error: string | null }
  | { step: "sent"; message: string };

export const $reportSubscribe = atom<SubscribeState>({ step: "hidden" });

const FAILED = "Could not subscribe. Please try again.";
const pathOf = (hash: string) =>
  `${readInlineConfig(document)?.apiBase || here().origin}/api/v1/device-data/public/report/${encodeURIComponent(hash)}/subscriptions`;

/** Shows the form when the report's owner lets visitors subscribe. */
export async function loadSubscribe(hash: string) {
  try {
    const res = await fetch(pathOf(hash), { headers: { accept: "application/json" } });
    const body = (await res.json()) as { data?: { open?: boolean } };
    if (res.ok && body.data?.open) $reportSubscribe.set({ step: "form", busy: false, error: null });
  } catch {
    /* No form: the report itself says what is wrong. */
  }
}

/** Sends the address; the answer is the same whether or not it was subscribed already. */
export const ENTER_ADDRESS = "Enter your email address.";

export async function subscribeToReport(hash: string, email: string) {
  // An empty field asks for the address; "Invalid email address." would read as a mistake made.
  if (!email.trim()) return $reportSubscribe.set({ step: "form", busy: false, error: ENTER_ADDRESS });
  $reportSubscribe.set({ step: "form", busy: true, error: null });
  try {
    const res = await fetch(pathOf(hash), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ email }),
    });
    const body = (await res.json()) as { data?: { message?: string } | { message: string }[] };
    const data = body.data;
    if (res.ok && data && !Array.isArray(data))
      $reportSubscribe.set({ step: "sent", message: data.message ?? "" });
    else
      $reportSubscribe.set({
        step: "form",
        busy: false,
        error: (Array.isArray(data) ? data[0]?.message : null) ?? FAILED,
      });
  } catch {
    $reportSubscribe.set({ step: "form", busy: false, error: FAILED });
  }
}
