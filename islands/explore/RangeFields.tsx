import { useId } from "react";
import type { FieldError } from "../../src/api/errors.ts";
import { RANGE_PRESETS, type RangeDraft, type RangePreset } from "../../src/stores/explore.ts";
import { Field } from "../ui/Field.tsx";

interface Props {
  draft: RangeDraft;
  /** The zone the custom times are read in: 'UTC', or the account's zone. */
  zoneLabel: string;
  errors: readonly FieldError[];
  onChange: (draft: RangeDraft) => void;
}

/**
 * A time range: Last 24 hours, 7 days, 30 days, or a custom From and To (wall-clock times in
 * the named zone). Used by the explore page and the Download Device Data dialog.
 */
export function RangeFields({ draft, zoneLabel, errors, onChange }: Props) {
  const selectId = useId();
  const error = (field: string) => errors.find((x) => x.field === field)?.message;
  return (
    <div className="range-fields">
      <label htmlFor={selectId}>Range</label>
      <select
        id={selectId}
        value={draft.preset}
        onChange={(e) => onChange({ ...draft, preset: e.target.value as RangePreset })}
      >
        {RANGE_PRESETS.map((p) => (
          <option key={p.value} value={p.value}>
            {p.label}
          </option>
        ))}
      </select>
      {draft.preset === "custom" && (
        <div className="grid">
          <div>
            <Field
              label={`From (${zoneLabel})`}
              type="datetime-local"
              value={draft.from}
              error={error("from")}
              onChange={(e) => onChange({ ...draft, from: e.target.value })}
            />
          </div>
          <div>
            <Field
              label={`To (${zoneLabel})`}
              type="datetime-local"
              value={draft.to}
              error={error("to")}
              onChange={(e) => onChange({ ...draft, to: e.target.value })}
            />
          </div>
        </div>
      )}
    </div>
  );
}
