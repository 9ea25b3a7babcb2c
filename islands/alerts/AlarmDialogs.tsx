import { useStore } from "@nanostores/react";
import { useState, type FormEvent } from "react";
import type { Alarm } from "../../src/api/alarms.ts";
import { MAX_NOTE } from "../../src/api/alarms.ts";
import { epochSeconds } from "../../src/domain/brand.ts";
import { attemptsText, deliveryStateText } from "../../src/domain/deliveryText.ts";
import { $ackForm, $alarmDetail, $alertPrefs, acknowledge, openAlarm } from "../../src/stores/alerts.ts";
import { BusyButton } from "../ui/BusyButton.tsx";
import { DateText } from "../ui/DateText.tsx";
import { Dialog, DialogActions } from "../ui/Dialog.tsx";
import { FormErrors } from "../ui/Field.tsx";

/** Acknowledge: the note is required (it is kept as the alarm's comment). */
export function AckDialog({ alarm, onClose }: { alarm: Alarm | null; onClose: () => void }) {
  const form = useStore($ackForm);
  const [note, setNote] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (alarm) void acknowledge(alarm.id, note).then((ok) => ok && (setNote(""), onClose()));
  };
  return (
    <Dialog title="Acknowledge alarm" open={alarm !== null} onClose={onClose}>
      <form onSubmit={submit}>
        <p>
          <strong>{alarm?.ruleName}</strong> on {alarm?.deviceName}
          {alarm?.channelName && ` · ${alarm.channelName}`}: {alarm?.valueText}
        </p>
        <label htmlFor="ack-note">What was done</label>
        <textarea
          id="ack-note"
          required
          maxLength={MAX_NOTE}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          aria-invalid={form.errors.length ? true : undefined}
        />
        <FormErrors messages={form.errors.map((e) => e.message)} />
        <DialogActions onClose={onClose}>
          <BusyButton busy={form.busy} busyLabel="Acknowledging...">
            Acknowledge
          </BusyButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}

const MOVE_TEXT: Record<string, string> = {
  pending: "Condition began",
  triggered: "Triggered",
  repeated: "Notified again",
  escalated: "Escalated",
  acknowledged: "Acknowledged",
  cleared: "Cleared",
};

/** An alarm's history (every move, with its reading and note) and its delivery log. */
export function AlarmDetailDialog() {
  const state = useStore($alarmDetail);
  const { zone } = useStore($alertPrefs);
  const close = () => void openAlarm(null);
  return (
    <Dialog title="Alarm history" open={state !== null} onClose={close}>
      {state?.status === "loading" && <p aria-busy="true">Loading...</p>}
      {state?.status === "failed" && <p role="alert">{state.message}</p>}
      {state?.status === "ready" && (
        <>
          <p>
            <strong>{state.value.alarm.ruleName}</strong> · {state.value.alarm.deviceName}
            {state.value.alarm.channelName && ` · ${state.value.alarm.channelName}`}
          </p>
          <p className="muted">Times in {zone}.</p>
          <ol className="alarm-history">
            {state.value.history.map((h, i) => (
              <li key={i}>
                <DateText at={epochSeconds(h.at)} zone={zone} withTime /> — {MOVE_TEXT[h.kind] ?? h.kind}
                {h.valueText && ` at ${h.valueText}`}
                {h.by && ` by ${h.by}`}
                {h.note && <blockquote>{h.note}</blockquote>}
              </li>
            ))}
          </ol>
          <h3>Notifications</h3>
          {state.value.deliveries.length === 0 && <p className="muted">Nobody was notified.</p>}
          <ul className="delivery-log">
            {state.value.deliveries.map((d) => (
              <li key={d.id}>
                {d.channel === "email" ? "Email" : "Webhook"} to {d.recipient} (
                {MOVE_TEXT[d.event] ?? d.event}): <strong>{deliveryStateText(d.state)}</strong>
                {attemptsText(d.state, d.attempts) && (
                  <small className="muted"> · {attemptsText(d.state, d.attempts)}</small>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </Dialog>
  );
}
