// The rule dialog's Dead band hint with an example (the review of 2026-11-29: "How far back
// inside before it clears" left a newcomer guessing), worked from the limits being typed.

const num = (text: string) => (text.trim() === "" || !Number.isFinite(Number(text)) ? null : Number(text));
const round = (v: number) => String(Math.round(v * 100) / 100);

/**
 * "How far back inside the limit a reading must come before the alarm clears. E.g. high limit
 * 8, dead band 0.5: it clears at 7.5 or below." Uses the typed limit and band when they are
 * numbers, else a worked example.
 */
export function deadBandHint(
  kind: string,
  low: string,
  high: string,
  deadBand: string,
  unit: string,
): string {
  const lead = "How far back inside the limit a reading must come before the alarm clears.";
  const band = num(deadBand) ?? 0.5;
  const useLow = kind === "below";
  const limit = (useLow ? num(low) : num(high)) ?? (useLow ? 2 : 8);
  const side = useLow ? "low" : "high";
  const at = useLow ? `${round(limit + band)}${unit} or above` : `${round(limit - band)}${unit} or below`;
  return `${lead} E.g. ${side} limit ${round(limit)}${unit}, dead band ${round(band)}: it clears at ${at}.`;
}
