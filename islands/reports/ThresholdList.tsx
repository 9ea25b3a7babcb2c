import { useStore } from "@nanostores/react";
import type { FieldError } from "../../src/api/errors.ts";
import type { ChannelOption } from "../../src/api/reportBuilder.ts";
import {
  $draft,
  addThreshold,
  changeThreshold,
  rangeIsTemperature,
  removeThreshold,
} from "../../src/stores/reports.ts";
import { $reportPrefs } from "../../src/stores/reportList.ts";
import { Field } from "../ui/Field.tsx";
import { SignedField } from "../ui/SignedField.tsx";

/**
 * The report's threshold ranges: the band of values that is out of specification, on one
 * channel or all, with a colour. Temperatures are typed in the person's scale.
 */
export function ThresholdList({ options, errors }: { options: ChannelOption[]; errors: FieldError[] }) {
  const draft = useStore($draft);
  const { scale } = useStore($reportPrefs);
  const error = (i: number, field: string) =>
    errors.find((e) => e.field === `thresholds.${i}.${field}`)?.message;
  const nameOf = (id: number) => {
    const o = options.find((x) => x.channelId === id);
    return o ? `${o.sensorName} - ${o.channelName}` : String(id);
  };
  return (
    <fieldset className="threshold-list">
      <legend>Threshold ranges</legend>
      {draft.thresholds.map((t, i) => {
        const unit = rangeIsTemperature(t.channelId, draft, options) ? ` (°${scale})` : "";
        return (
          <fieldset key={i} className="threshold-row">
            <legend className="visually-hidden">{`Threshold range ${i + 1}`}</legend>
            <div>
              <Field
                label="Range name"
                value={t.name}
                error={error(i, "name")}
                onChange={(e) => changeThreshold(i, { name: e.target.value })}
              />
            </div>
            <div>
              <label htmlFor={`range-channel-${i}`}>Applies to</label>
              <select
                id={`range-channel-${i}`}
                value={t.channelId ?? ""}
                onChange={(e) =>
                  changeThreshold(i, { channelId: e.target.value ? Number(e.target.value) : null })
                }
              >
                <option value="">All channels</option>
                {draft.channels.map((c) => (
                  <option key={c.channelId} value={c.channelId}>
                    {nameOf(c.channelId)}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <SignedField
                label={`From${unit}`}
                inputMode="decimal"
                value={t.min}
                error={error(i, "minValue")}
                hint="Empty: no lower end"
                onChange={(e) => changeThreshold(i, { min: e.target.value })}
              />
            </div>
            <div>
              <SignedField
                label={`To${unit}`}
                inputMode="decimal"
                value={t.max}
                error={error(i, "maxValue")}
                hint="Empty: no upper end"
                onChange={(e) => changeThreshold(i, { max: e.target.value })}
              />
            </div>
            <div className="threshold-color">
              <label htmlFor={`range-color-${i}`}>Colour</label>
              <input
                id={`range-color-${i}`}
                type="color"
                value={t.color}
                onChange={(e) => changeThreshold(i, { color: e.target.value })}
              />
            </div>
            <button type="button" className="secondary outline" onClick={() => removeThreshold(i)}>
              Remove<span className="visually-hidden"> range {i + 1}</span>
            </button>
          </fieldset>
        );
      })}
      <button type="button" className="secondary" onClick={addThreshold}>
        Add threshold range
      </button>
    </fieldset>
  );
}
