import { useStore } from "@nanostores/react";
import { getPagePath } from "@nanostores/router";
import { useState } from "react";
import type { Alarm, Rule } from "../../src/api/alerts.ts";
import { epochSeconds } from "../../src/domain/brand.ts";
import {
  $alarmScope,
  $alarms,
  $alertPrefs,
  $rules,
  $ruleTask,
  loadAlarms,
  loadRules,
  openAlarm,
  pauseRule,
  removeRule,
  showAlarms,
} from "../../src/stores/alerts.ts";
import { $router } from "../../src/stores/router.ts";
import { BusyButton } from "../ui/BusyButton.tsx";
import { DateText } from "../ui/DateText.tsx";
import { Dialog } from "../ui/Dialog.tsx";
import { EmptyState } from "../ui/EmptyState.tsx";
import { FormErrors } from "../ui/Field.tsx";
import { AckDialog, AlarmDetailDialog } from "./AlarmDialogs.tsx";
import { RuleDialog } from "./RuleDialog.tsx";
import "./alerts.css";

/**
 * /s/alerts: active alarms first (triggered, then acknowledged), each with Acknowledge and
 * its history; then the rules. Administrators and Managers add, change, pause and delete
 * rules; everyone else reads them.
 */
export default function AlertsPage() {
  return (
    <section className="alerts-page">
      <h1>Alerts</h1>
      <AlarmSection />
      <RuleSection />
    </section>
  );
}

function AlarmSection() {
  const state = useStore($alarms);
  const scope = useStore($alarmScope);
  return (
    <section aria-labelledby="alarms-heading">
      <header className="alerts-head">
        <h2 id="alarms-heading">{scope === "active" ? "Active alarms" : "All alarms"}</h2>
        <button
          type="button"
          className="secondary outline"
          onClick={() => showAlarms(scope === "active" ? "all" : "active")}
        >
          {scope === "active" ? "Show cleared too" : "Show active only"}
        </button>
      </header>
      {state.status === "loading" && <p aria-busy="true">Loading alarms...</p>}
      {state.status === "failed" && (
        <div role="alert">
          {state.message}{" "}
          <button type="button" className="secondary" onClick={() => void loadAlarms()}>
            Try again
          </button>
        </div>
      )}
      {state.status === "ready" &&
        (state.value.length ? (
          <AlarmTable list={state.value} />
        ) : (
          <EmptyState
            title={scope === "active" ? "No active alarms" : "No alarms yet"}
            text="An alarm appears here when a rule's condition holds past its delay."
          />
        ))}
    </section>
  );
}

const STATE_TEXT: Record<string, string> = {
  triggered: "In alarm",
  acknowledged: "Acknowledged",
  cleared: "Cleared",
  pending: "Pending",
};

function AlarmTable({ list }: { list: Alarm[] }) {
  const { zone, acknowledges } = useStore($alertPrefs);
  const [acking, setAcking] = useState<Alarm | null>(null);
  return (
    <>
      <div className="overflow-auto">
        <table className="alerts-table">
          <thead>
            <tr>
              <th scope="col">Alarm</th>
              <th scope="col">Severity</th>
              <th scope="col">Device</th>
              <th scope="col">Value</th>
              <th scope="col">Since</th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((a) => (
              <tr key={a.id} className={`alarm-row alarm-${a.state}`}>
                <th scope="row">{a.ruleName}</th>
                <td data-label="Severity">
                  <span className={`severity severity-${a.severity}`}>{a.severity}</span>
                </td>
                <td data-label="Device">
                  <a href={getPagePath($router, "deviceDetails", { id: String(a.deviceId) })}>
                    {a.deviceName}
                  </a>
                  {a.channelName && <span className="muted"> · {a.channelName}</span>}
                </td>
                <td data-label="Value">
                  {a.valueText}
                  {a.limitText && <span className="muted"> (limit {a.limitText})</span>}
                </td>
                <td data-label="Since">
                  <DateText at={epochSeconds(a.since)} zone={zone} withTime />
                </td>
                <td data-label="State">
                  <span className={`alarm-state state-${a.state}`}>{STATE_TEXT[a.state]}</span>
                  {a.acknowledgedBy && <small className="muted"> by {a.acknowledgedBy}</small>}
                </td>
                <td className="alert-actions">
                  {acknowledges && a.state === "triggered" && (
                    <button type="button" onClick={() => setAcking(a)}>
                      Acknowledge<span className="visually-hidden"> {a.ruleName}</span>
                    </button>
                  )}
                  <button type="button" className="secondary outline" onClick={() => void openAlarm(a.id)}>
                    History<span className="visually-hidden"> of {a.ruleName}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <AckDialog alarm={acking} onClose={() => setAcking(null)} />
      <AlarmDetailDialog />
    </>
  );
}

function RuleSection() {
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
      {state.status === "failed" && (
        <div role="alert">
          {state.message}{" "}
          <button type="button" className="secondary" onClick={() => void loadRules()}>
            Try again
          </button>
        </div>
      )}
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
