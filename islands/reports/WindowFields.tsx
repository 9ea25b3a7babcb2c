import { useStore } from "@nanostores/react";
import { useState } from "react";
import type { FieldError } from "../../src/api/errors.ts";
import { $reportPrefs } from "../../src/stores/reportList.ts";
import { $draft, editDraft, WINDOW_PRESETS } from "../../src/stores/reports.ts";
import { Field } from "../ui/Field.tsx";

const CUSTOM = "custom";
const FIXED = "0";

/**
 * The report's window: a rolling preset (24 hours, 7 days, 30 days), a rolling window of any
 * number of seconds, or a fixed start and end (wall-clock times in the person's zone).
 */
export function WindowFields({ errors }: { errors: FieldError[] }) {
  const draft = useStore($draft);
  const { zone } = useStore($reportPrefs);
  const isPreset = WINDOW_PRESETS.some((p) => p.seconds === draft.rolling);
  const [custom, setCustom] = useState(draft.rolling > 0 && !isPreset);
  const error = (field: string) => errors.find((e) => e.field === field)?.message;
  const choice = draft.rolling === 0 ? FIXED : custom ? CUSTOM : String(draft.rolling);
  const choose = (value: string) => {
    setCustom(value === CUSTOM);
    if (value !== CUSTOM) editDraft("rolling", Number(value));
    else if (draft.rolling === 0) editDraft("rolling", 3600);
  };
  return (
    <fieldset>
      <legend>Time window</legend>
      <label htmlFor="report-window">Window</label>
      <select id="report-window" value={choice} onChange={(e) => choose(e.target.value)}>
        {WINDOW_PRESETS.map((p) => (
          <option key={p.seconds} value={String(p.seconds)}>
            {p.label}
          </option>
        ))}
        <option value={CUSTOM}>Last N seconds</option>
        <option value={FIXED}>Fixed start and end</option>
      </select>
      {custom && draft.rolling > 0 && (
        <Field
          label="Seconds"
          type="number"
          min={60}
          step={60}
          value={draft.rolling}
          error={error("timeInterval")}
          hint="At least 60; the chart shows this many seconds up to now."
          onChange={(e) => editDraft("rolling", Math.max(1, Math.floor(Number(e.target.value) || 1)))}
        />
      )}
      {!custom && error("timeInterval") && <small className="form-error">{error("timeInterval")}</small>}
      {draft.rolling === 0 && (
        <div className="grid">
          <div>
            <Field
              label={`Start (${zone})`}
              type="datetime-local"
              value={draft.start}
              error={error("startDate")}
              onChange={(e) => editDraft("start", e.target.value)}
            />
          </div>
          <div>
            <Field
              label={`End (${zone})`}
              type="datetime-local"
              value={draft.end}
              error={error("endDate")}
              onChange={(e) => editDraft("end", e.target.value)}
            />
          </div>
        </div>
      )}
    </fieldset>
  );
}
