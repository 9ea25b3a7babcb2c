import { useStore } from "@nanostores/react";
import type { FieldError } from "../../src/api/errors.ts";
import { DEFAULT_ACTIVATION_ENERGY } from "../../src/domain/compliance.ts";
import { $draft, editDraft } from "../../src/stores/reports.ts";
import { Field } from "../ui/Field.tsx";

/** The report's ΔH for the mean kinetic temperature of its temperature channels (kJ/mol). */
export function MktField({ errors }: { errors: readonly FieldError[] }) {
  const draft = useStore($draft);
  return (
    <Field
      label="Activation energy for mean kinetic temperature (kJ/mol)"
      inputMode="decimal"
      value={draft.mkt}
      error={errors.find((e) => e.field === "mktActivationEnergy")?.message}
      hint={`${DEFAULT_ACTIVATION_ENERGY} unless your product's stability data gives another value.`}
      onChange={(e) => editDraft("mkt", e.target.value)}
    />
  );
}
