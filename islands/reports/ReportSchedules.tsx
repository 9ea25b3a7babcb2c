import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import type { Member, Schedule } from "../../src/api/reportSchedules.ts";
import { formatStamp } from "../../src/domain/reportText.ts";
import {
  $scheduleRowTask,
  $schedules,
  loadSchedules,
  newScheduleDraft,
  pauseSchedule,
  removeSchedule,
  startEditSchedule,
} from "../../src/stores/reportSchedules.ts";
import { $session } from "../../src/stores/session.ts";
import { FormErrors } from "../ui/Field.tsx";
import { ScheduleForm } from "./ScheduleForm.tsx";
import { scheduleText } from "./scheduleText.ts";

/** The report builder's "Send by mail" section: schedules, their delivery log, the form. */
export function ReportSchedules({ reportId }: { reportId: number }) {
  const state = useStore($schedules);
  const session = useStore($session);
  const info = session.status === "signedIn" ? session.info : null;
  const zone = info?.timezone ?? "UTC";
  const scale = info?.temperatureScale ?? "F";
  useEffect(() => {
    void loadSchedules(reportId);
    newScheduleDraft(zone, scale);
  }, [reportId, zone, scale]);
  return (
    <section className="report-schedules" aria-labelledby="schedules-title">
      <h2 id="schedules-title">Send by mail</h2>
      {state?.status === "loading" && <p aria-busy="true">Loading...</p>}
      {state?.status === "failed" && <p role="alert">{state.message}</p>}
      {state?.status === "ready" && (
        <>
          {state.schedules.length === 0 && <p>No schedules yet.</p>}
          {state.schedules.map((s) => (
            <ScheduleItem key={s.id} schedule={s} members={state.members} zone={zone} />
          ))}
          <ScheduleForm reportId={reportId} members={state.members} zone={zone} scale={scale} />
        </>
      )}
    </section>
  );
}

function ScheduleItem({
  schedule: s,
  members,
  zone,
}: {
  schedule: Schedule;
  members: Member[];
  zone: string;
}) {
  const task = useStore($scheduleRowTask);
  const names = [
    ...s.userIds.map((id) => members.find((m) => m.id === id)?.name ?? `Member ${id}`),
    ...s.emails,
  ];
  return (
    <article className="schedule-item">
      <p>
        <strong>{scheduleText(s)}</strong>
        {s.paused ? " · Paused" : ` · Next ${formatStamp(s.nextRunAt, zone)}`}
      </p>
      <p>To {names.join(", ") || "nobody (everyone unsubscribed)"}</p>
      <div className="report-form-actions schedule-actions">
        <button type="button" className="secondary outline" onClick={() => startEditSchedule(s)}>
          Edit
        </button>
        <button
          type="button"
          className="secondary outline"
          aria-disabled={task.busy}
          onClick={() => !task.busy && void pauseSchedule(s, !s.paused)}
        >
          {s.paused ? "Resume" : "Pause"}
        </button>
        <button
          type="button"
          className="secondary outline"
          aria-disabled={task.busy}
          onClick={() => !task.busy && void removeSchedule(s.id)}
        >
          Delete
        </button>
      </div>
      <FormErrors messages={task.errors.map((e) => e.message)} />
      <details>
        <summary>Delivery log ({s.deliveries.length})</summary>
        {s.deliveries.length === 0 ? (
          <p>Nothing sent yet.</p>
        ) : (
          <div className="table-scroll">
            <table className="delivery-table">
              <thead>
                <tr>
                  <th scope="col">Run ({zone})</th>
                  <th scope="col">Recipient</th>
                  <th scope="col">State</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Error</th>
                </tr>
              </thead>
              <tbody>
                {s.deliveries.map((d) => (
                  <tr key={`${d.runAt}-${d.recipient}`}>
                    <td data-label={`Run (${zone})`}>{formatStamp(d.runAt, zone)}</td>
                    <td data-label="Recipient">{d.recipient}</td>
                    <td data-label="State">
                      {d.state === "sent" ? "Sent" : d.state === "failed" ? "Failed" : "Waiting"}
                    </td>
                    <td data-label="Attempts">{d.attempts}</td>
                    <td data-label="Error">{d.lastError ?? ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </details>
    </article>
  );
}
