import { useStore } from "@nanostores/react";
import { getPagePath } from "@nanostores/router";
import { useState } from "react";
import type { Alarm } from "../../src/api/alarms.ts";
import { epochSeconds } from "../../src/domain/brand.ts";
import {
  $alarmScope,
  $alarms,
  $alertPrefs,
  loadAlarms,
  openAlarm,
  showAlarms,
} from "../../src/stores/alerts.ts";
import { $router } from "../../src/stores/router.ts";
import { DateText } from "../ui/DateText.tsx";
import { EmptyState } from "../ui/EmptyState.tsx";
import { LoadFailed } from "../devices/LoadFailed.tsx";
import { AckDialog, AlarmDetailDialog } from "./AlarmDialogs.tsx";
import { RuleSection } from "./RuleSection.tsx";
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
      {state.status === "failed" && <LoadFailed message={state.message} onRetry={() => void loadAlarms()} />}
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
              <th scope="col">Since ({zone})</th>
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
                <td data-label={`Since (${zone})`}>
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
