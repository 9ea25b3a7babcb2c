// An alarm notice's delivery in words (the alarm history's Notifications list): "Sent" says what
// "sent · 1 attempt, last: mailed" said, and a retry or a failure says how many tries it took.

export type DeliveryState = "queued" | "sent" | "failed";

const STATE_TEXT: Record<DeliveryState, string> = { queued: "Waiting", sent: "Sent", failed: "Failed" };

/** The state as a word: Waiting, Sent, Failed. */
export const deliveryStateText = (state: DeliveryState) => STATE_TEXT[state];

/**
 * The attempts beside the state: nothing for a notice sent at the first try; "after 3 attempts"
 * for one sent later; the count and the last answer for one waiting or failed.
 */
export function attemptsText(state: DeliveryState, attempts: readonly { detail: string }[]): string {
  const n = attempts.length;
  const count = `${n} attempt${n === 1 ? "" : "s"}`;
  if (state === "sent") return n > 1 ? `after ${count}` : "";
  const last = attempts[n - 1]?.detail;
  return last ? `${count}, last: ${last}` : count;
}
