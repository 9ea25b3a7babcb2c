import { useStore } from "@nanostores/react";
import { useState } from "react";
import type { Rule } from "../../src/api/alerts.ts";
import { $alertPrefs, $rules, $ruleTask, loadRules, pauseRule, removeRule } from "../../src/stores/alerts.ts";
import { BusyButton } from "../ui/BusyButton.tsx";
import { Dialog } from "../ui/Dialog.tsx";
import { EmptyState } from "../ui/EmptyState.tsx";
import { FormErrors } from "../ui/Field.tsx";
import { LoadFailed } from "../devices/LoadFailed.tsx";
import { RuleDialog } from "./RuleDialog.tsx";

/** The rules part of /s/alerts: the list, and for Administrators and Managers its editor. */
export function RuleSection() {
  const state = useStore($rules);
  const { editable } = useStore($alertPrefs);
  const [editing, setEditing] = useState<Rule | "new" | null>(null);
  return (
    <section aria-labelledby="rules-heading">
      <header className="alerts-head">
        <h2 id="rules-heading">Rules</h2>
        {state.status === "ready" && (
          <span className="muted">
            {state.value.alertCount}
            {state.value.alertLimit !== null && ` of ${state.value.alertLimit}`} rules
          </span>
        )}
        {editable && (
          <button type="button" onClick={() => setEditing("new")}>
            New rule
          </button>
        )}
      </header>
      {!editable && <p className="muted">Administrators and Managers add and change rules.</p>}
      {state.status === "loading" && <p aria-busy="true">Loading rules...</p>}
      {state.status === "failed" && <LoadFailed message={state.message} onRetry={() => void loadRules()} />}
      {state.status === "ready" &&
        (state.value.rules.length ? (
          <RuleTable rules={state.value.rules} editable={editable} onEdit={setEditing} />
        ) : (
          <EmptyState
            title="No rules yet"
            text="A rule watches a channel's readings or a device's silence and tells the people you name."
          />
        ))}
      <RuleDialog rule={editing} onClose={() => setEditing(null)} />
    </section>
  );
}

function conditionText(r: Rule): string {
  const c = r.condition;
  const unit = r.channelKind && /temperature|dew_point|heat_index/.test(r.channelKind) ? ` °${c.scale}` : "";
  if (c.type === "above") return `above ${c.high}${unit}`;
  if (c.type === "below") return `below ${c.low}${unit}`;
  if (c.type === "outside") return `outside ${c.low} to ${c.high}${unit}`;
  if (c.type === "offline") return `silent past its interval + ${Math.round(c.graceSeconds / 60)} min`;
  if (c.type === "stale") return "sensor not reporting for 2 hours";
  return "battery low (30% or less)";
}

function delayText(r: Rule): string {
  const parts = [];
  if (r.delaySeconds) parts.push(`for ${Math.round(r.delaySeconds / 60)} min`);
  if (r.delayReadings > 1) parts.push(`${r.delayReadings} readings in a row`);
  return parts.length ? parts.join(", ") : "at once";
}

function RuleTable({
  rules,
  editable,
  onEdit,
}: {
  rules: Rule[];
  editable: boolean;
  onEdit: (r: Rule) => void;
}) {
  const task = useStore($ruleTask);
  const [deleting, setDeleting] = useState<Rule | null>(null);
  return (
    <>
      <FormErrors messages={task.errors.map((e) => e.message)} />
      <div className="overflow-auto">
        <table className="alerts-table">
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">Watches</th>
              <th scope="col">When</th>
              <th scope="col">Delay</th>
              <th scope="col">Open alarms</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.map((r) => (
              <tr key={r.id} className={r.paused ? "rule-paused" : undefined}>
                <th scope="row">
                  {r.name}
                  {r.paused && <small className="muted"> (paused)</small>}
                </th>
                <td data-label="Watches">{r.watches}</td>
                <td data-label="When">{conditionText(r)}</td>
                <td data-label="Delay">{delayText(r)}</td>
                <td data-label="Open alarms">{r.openAlarms}</td>
                <td className="alert-actions">
                  {editable && (
                    <>
                      <button type="button" className="secondary outline" onClick={() => onEdit(r)}>
                        Edit<span className="visually-hidden"> {r.name}</span>
                      </button>
                      <button
                        type="button"
                        className="secondary outline"
                        onClick={() => void pauseRule(r, !r.paused)}
                      >
                        {r.paused ? "Resume" : "Pause"}
                        <span className="visually-hidden"> {r.name}</span>
                      </button>
                      <button type="button" className="secondary outline" onClick={() => setDeleting(r)}>
                        Delete<span className="visually-hidden"> {r.name}</span>
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Dialog
        title="Delete rule?"
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        footer={
          <>
            <button type="button" className="secondary" onClick={() => setDeleting(null)}>
              Cancel
            </button>
            <BusyButton
              type="button"
              busy={task.busy}
              busyLabel="Deleting..."
              onClick={() => void removeRule(deleting!).then((ok) => ok && setDeleting(null))}
            >
              Delete
            </BusyButton>
          </>
        }
      >
        <p>{deleting?.name} stops watching; its open alarms clear and their history stays.</p>
      </Dialog>
    </>
  );
}
