import { useId, type ComponentProps, type ReactNode, type SelectHTMLAttributes } from "react";
import type { RuleInput } from "../../src/api/alerts.ts";
import { Field } from "../ui/Field.tsx";
import { SignedField } from "../ui/SignedField.tsx";

/* The rule editor's parts (RuleDialog.tsx): its kinds, text parsing, and its labelled cells. */

export type Kind = RuleInput["condition"]["type"];
export const KINDS: [Kind, string][] = [
  ["above", "Reading above a limit"],
  ["below", "Reading below a limit"],
  ["outside", "Reading outside a range"],
  ["offline", "Device goes silent"],
  ["stale", "Sensor stops reporting (2 hours)"],
  ["battery", "Battery low"],
];
export const isThreshold = (k: Kind) => k === "above" || k === "below" || k === "outside";
export const list = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
/** A field in a cell of its own: a grid row places each field's label, input and note together. */
export function Cell(props: ComponentProps<typeof Field>) {
  return (
    <div>
      <Field {...props} />
    </div>
  );
}

/** A cell for a number that may be below zero: its field with a "±" button. */
export function SignedCell(props: ComponentProps<typeof Field>) {
  return (
    <div>
      <SignedField {...props} />
    </div>
  );
}

/** A select with its own label (a label around a select would take the chosen option into its name). */
export function Picker({
  label,
  children,
  ...rest
}: { label: string; children: ReactNode } & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      <select id={id} {...rest}>
        {children}
      </select>
    </div>
  );
}

/** Errors of these fields show beside them; any other shows above the buttons. */
const BESIDE =
  /^(name|channelKey|tagId|deviceId|condition\.(low|high|deadBand|graceSeconds)|delaySeconds|delayReadings|repeatMinutes|notify\.(emails|webhookUrls)|escalation|quietHours)/;
export const shownBeside = (field: string | null) => field !== null && BESIDE.test(field);
export const num = (text: string) => (text.trim() === "" ? null : Number(text));
