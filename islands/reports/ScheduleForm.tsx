import { useStore } from "@nanostores/react";
import { useId } from "react";
import type { Member } from "../../src/api/reportSchedules.ts";
import { PERIOD_NAMES } from "../../src/domain/cadence.ts";
import { ZONES } from "../../src/domain/reportText.ts";
import {
  $scheduleDraft,
  $scheduleForm,
  editScheduleDraft,
  newScheduleDraft,
  saveSchedule,
  type ScheduleDraft,
} from "../../src/stores/reportSchedules.ts";
import { BusyButton } from "../ui/BusyButton.tsx";
import { FormErrors } from "../ui/Field.tsx";
import { HOURS, WEEKDAYS } from "./scheduleText.ts";

interface Props {
  reportId: number;
  members: Member[];
  zone: string;
  scale: "F" | "C";
}

/** A labelled select of the draft's `field`. */
function Choice<K extends keyof ScheduleDraft>(props: {
  label: string;
  field: K;
  options: readonly (readonly [ScheduleDraft[K], string])[];
}) {
  const id = useId();
  const draft = useStore($scheduleDraft);
  const index = props.options.findIndex(([v]) => v === draft[props.field]);
  return (
    <div>
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        value={String(Math.max(0, index))}
        onChange={(e) => editScheduleDraft(props.field, props.options[Number(e.target.value)]![0])}
      >
        {props.options.map(([, text], i) => (
          <option key={text} value={i}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Add or change a schedule: when, in which zone and scale, which files, to whom. */
export function ScheduleForm({ reportId, members, zone, scale }: Props) {
  const draft = useStore($scheduleDraft);
  const form = useStore($scheduleForm);
  const addressesId = useId();
  const zones = ZONES.includes(draft.timeZone) ? ZONES : [draft.timeZone, ...ZONES];
  const toggle = (id: number, on: boolean) =>
    editScheduleDraft("userIds", on ? [...draft.userIds, id] : draft.userIds.filter((x) => x !== id));
  const errorOf = (field: string) => form.errors.find((e) => e.field === field)?.message;
  const general = form.errors
    .filter((e) => !["emails", "userIds"].includes(e.field ?? ""))
    .map((e) => e.message);
  return (
    <form
      aria-label={draft.editing === null ? "Add a schedule" : "Edit schedule"}
      onSubmit={(e) => {
        e.preventDefault();
        void saveSchedule(reportId, zone, scale);
      }}
    >
      <h3>{draft.editing === null ? "Add a schedule" : "Edit schedule"}</h3>
      <div className="schedule-grid">
        <Choice
          label="Send"
          field="cadence"
          options={[
            ["daily", "Daily"],
            ["weekly", "Weekly"],
            ["monthly", "Monthly (1st)"],
          ]}
        />
        {draft.cadence === "weekly" && (
          <Choice label="On" field="weekday" options={WEEKDAYS.map((d, i) => [i + 1, d] as const)} />
        )}
        <Choice label="At" field="hour" options={HOURS.map((h, i) => [i, h] as const)} />
        <Choice label="Time zone" field="timeZone" options={zones.map((z) => [z, z] as const)} />
        <Choice
          label="Temperatures in"
          field="scale"
          options={[
            ["F", "°F"],
            ["C", "°C"],
          ]}
        />
        <Choice
          label="Files"
          field="format"
          options={[
            ["pdf", "PDF"],
            ["csv", "CSV"],
            ["both", "PDF and CSV"],
          ]}
        />
      </div>
      <p>
        <small>
          Each mail covers {PERIOD_NAMES[draft.cadence].toLowerCase()}, midnight to midnight in the chosen
          time zone.
        </small>
      </p>
      <fieldset>
        <legend>Members</legend>
        {members.map((m) => (
          <label key={m.id}>
            <input
              type="checkbox"
              checked={draft.userIds.includes(m.id)}
              onChange={(e) => toggle(m.id, e.target.checked)}
            />
            {m.name} <small>{m.email}</small>
          </label>
        ))}
        {errorOf("userIds") && <small role="alert">{errorOf("userIds")}</small>}
      </fieldset>
      <label htmlFor={addressesId}>Other addresses</label>
      <textarea
        id={addressesId}
        rows={2}
        value={draft.emails}
        placeholder="one per line"
        aria-invalid={errorOf("emails") ? true : undefined}
        aria-describedby={`${addressesId}-note`}
        onChange={(e) => editScheduleDraft("emails", e.target.value)}
      />
      <small id={`${addressesId}-note`}>
        {errorOf("emails") ?? "Each mail has a one-click unsubscribe link."}
      </small>
      <FormErrors messages={general} />
      <div className="report-form-actions">
        {draft.editing !== null && (
          <button type="button" className="secondary outline" onClick={() => newScheduleDraft(zone, scale)}>
            Cancel
          </button>
        )}
        <BusyButton busy={form.busy} busyLabel="Saving...">
          Save schedule
        </BusyButton>
      </div>
    </form>
  );
}
