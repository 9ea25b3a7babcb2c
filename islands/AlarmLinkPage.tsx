import { useStore } from "@nanostores/react";
import { useEffect, type FormEvent } from "react";
import { MAX_NOTE } from "../src/api/alarms.ts";
import { fieldError, generalErrors } from "../src/api/errors.ts";
import { epochSeconds } from "../src/domain/brand.ts";
import { $alarmLink, $alarmLinkForm, acknowledgeFromLink, checkAlarmLink } from "../src/stores/alarmLink.ts";
import { BusyButton } from "./ui/BusyButton.tsx";
import { DateText } from "./ui/DateText.tsx";
import { FormErrors } from "./ui/Field.tsx";
import { Form } from "./ui/Form.tsx";

const TITLE = "Acknowledge alarm";

/** /alerts/acknowledge?token=: acknowledge an alarm from its email, with a note. */
export default function AlarmLinkPage() {
  const state = useStore($alarmLink);
  const form = useStore($alarmLinkForm);
  useEffect(() => void checkAlarmLink(), []);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void acknowledgeFromLink(String(new FormData(e.currentTarget).get("note") ?? ""));
  };
  if (state.step === "checking")
    return (
      <article className="card-narrow">
        <h1>{TITLE}</h1>
        <p aria-busy="true">Checking your link...</p>
      </article>
    );
  if (state.step === "broken")
    return (
      <article className="card-narrow">
        <h1>{TITLE}</h1>
        <p role="alert">{state.errors[0]?.message ?? "This link does not work."}</p>
        <p>Alarms can also be acknowledged in the portal, under Alerts.</p>
      </article>
    );
  const { alarm } = state;
  const summary = (
    <dl className="alarm-summary">
      <dt>Alarm</dt>
      <dd>{alarm.ruleName}</dd>
      <dt>Where</dt>
      <dd>
        {alarm.deviceName}
        {alarm.channelName && ` · ${alarm.channelName}`}
      </dd>
      <dt>Value</dt>
      <dd>
        {alarm.valueText}
        {alarm.limitText && ` (limit ${alarm.limitText})`}
      </dd>
      <dt>Since</dt>
      <dd>
        <DateText at={epochSeconds(alarm.since)} withTime /> (UTC)
      </dd>
    </dl>
  );
  if (state.step === "done")
    return (
      <article className="card-narrow" aria-live="polite">
        <h1>Alarm acknowledged</h1>
        {summary}
        <p>Thank you. Repeats and escalation of this alarm have stopped.</p>
      </article>
    );
  if (alarm.state !== "triggered")
    return (
      <article className="card-narrow">
        <h1>{TITLE}</h1>
        {summary}
        <p role="status">
          {alarm.state === "acknowledged"
            ? `Already acknowledged${alarm.acknowledgedBy ? ` by ${alarm.acknowledgedBy}` : ""}.`
            : "This alarm has cleared; there is nothing to acknowledge."}
        </p>
      </article>
    );
  return (
    <article className="card-narrow">
      <Form onSubmit={submit} aria-label={TITLE}>
        <h1>{TITLE}</h1>
        {summary}
        <p className="muted">You are acknowledging as {state.recipient}.</p>
        <label htmlFor="ack-link-note">What was done</label>
        <textarea
          id="ack-link-note"
          name="note"
          required
          maxLength={MAX_NOTE}
          aria-invalid={fieldError(form.errors, "note") ? true : undefined}
          aria-describedby="ack-link-note-error"
        />
        <small id="ack-link-note-error">{fieldError(form.errors, "note")}</small>
        <BusyButton busy={form.busy} busyLabel="Acknowledging...">
          Acknowledge
        </BusyButton>
        <FormErrors messages={generalErrors(form.errors, ["note"])} />
      </Form>
    </article>
  );
}
