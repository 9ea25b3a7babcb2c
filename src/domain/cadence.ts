/** How often a scheduled report is mailed (no Temporal here: the browser's contract uses it). */
export const CADENCES = ["daily", "weekly", "monthly"] as const;
export type Cadence = (typeof CADENCES)[number];

/** "Yesterday", "Last week", "Last month": the period a send covers, in the mail and the builder. */
export const PERIOD_NAMES: Record<Cadence, string> = {
  daily: "Yesterday",
  weekly: "Last week",
  monthly: "Last month",
};
