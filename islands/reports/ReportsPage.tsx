import { getPagePath } from "@nanostores/router";
import { useStore } from "@nanostores/react";
import { useState } from "react";
import type { ReportSummary } from "../../src/api/reportBuilder.ts";
import { formatDate } from "../../src/domain/dayText.ts";
import { publicReportPath } from "../../src/domain/paths.ts";
import type { EpochSeconds } from "../../src/domain/brand.ts";
import { $reportPrefs, $reports, loadReports } from "../../src/stores/reportList.ts";
import { $deleteTask, removeReport } from "../../src/stores/reportLinks.ts";
import { $router } from "../../src/stores/router.ts";
import { Dialog } from "../ui/Dialog.tsx";
import { EmptyState } from "../ui/EmptyState.tsx";
import { FormErrors } from "../ui/Field.tsx";
import { BusyButton } from "../ui/BusyButton.tsx";
import { LinkDialog } from "./LinkDialog.tsx";
import { linkText, windowText } from "./format.ts";
import "./reports.css";

/**
 * /s/reports: the subscription's reports with their window, public link state, views in the
 * last 30 days and expiry. Administrators and Managers create, edit, share and delete;
 * everyone else reads. A live report opens its chart from View (the name opens the editor).
 */
export default function ReportsPage() {
  const state = useStore($reports);
  const { editable } = useStore($reportPrefs);
  return (
    <section className="reports-page">
      <header className="reports-head">
        <h1>Reports</h1>
        {editable && (
          <a role="button" href={getPagePath($router, "reportNew")}>
            New report
          </a>
        )}
      </header>
      <p className="muted">Shared reports show your channels' charts to anyone with the link.</p>
      {state.status === "loading" && <p aria-busy="true">Loading reports...</p>}
      {state.status === "failed" && (
        <div role="alert">
          {state.message}{" "}
          <button type="button" className="secondary" onClick={() => void loadReports()}>
            Try again
          </button>
        </div>
      )}
      {state.status === "ready" &&
        (state.value.length ? (
          <ReportTable list={state.value} editable={editable} />
        ) : (
          <EmptyState title="No reports yet" text="A report charts chosen channels over a window you pick." />
        ))}
    </section>
  );
}

function ReportTable({ list, editable }: { list: ReportSummary[]; editable: boolean }) {
  const { zone } = useStore($reportPrefs);
  const [linkFor, setLinkFor] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<ReportSummary | null>(null);
  const shown = list.find((r) => r.id === linkFor) ?? null;
  return (
    <>
      <div className="overflow-auto">
        <table className="reports-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Channels</th>
              <th scope="col">Window</th>
              <th scope="col">Public link</th>
              <th scope="col">Views (30 days)</th>
              <th scope="col">Link expires</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((r) => (
              <tr key={r.id}>
                <th scope="row">
                  {editable ? (
                    <a href={getPagePath($router, "reportEdit", { id: String(r.id) })}>{r.name}</a>
                  ) : (
                    r.name
                  )}
                </th>
                <td data-label="Channels">{r.channelCount}</td>
                <td data-label="Window">{windowText(r, zone)}</td>
                <td data-label="Public link">
                  <span className={`link-state link-${r.link?.state ?? "none"}`}>{linkText(r)}</span>
                </td>
                <td data-label="Views (30 days)">{r.views30Days}</td>
                <td data-label="Link expires">
                  {!r.link ? (
                    <>
                      <span aria-hidden="true">—</span>
                      <span className="visually-hidden">No link</span>
                    </>
                  ) : r.link.expiresAt ? (
                    formatDate(r.link.expiresAt as EpochSeconds, zone)
                  ) : (
                    "Never"
                  )}
                </td>
                <td className="report-actions">
                  {r.link?.state === "live" && (
                    <a
                      className="view-link"
                      href={publicReportPath(r.link.publicHash)}
                      target="_blank"
                      rel="noopener"
                    >
                      View<span className="visually-hidden"> {r.name}</span>
                    </a>
                  )}
                  <button type="button" className="secondary outline" onClick={() => setLinkFor(r.id)}>
                    Link<span className="visually-hidden"> of {r.name}</span>
                  </button>
                  {editable && (
                    <button type="button" className="secondary outline" onClick={() => setDeleting(r)}>
                      Delete<span className="visually-hidden"> {r.name}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <LinkDialog report={shown} editable={editable} onClose={() => setLinkFor(null)} />
      <DeleteDialog report={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}

function DeleteDialog({ report, onClose }: { report: ReportSummary | null; onClose: () => void }) {
  const task = useStore($deleteTask);
  return (
    <Dialog
      title="Delete report?"
      open={report !== null}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="secondary" onClick={onClose}>
            Cancel
          </button>
          <BusyButton
            type="button"
            busy={task.busy}
            busyLabel="Deleting..."
            onClick={() => void removeReport(report!.id).then((ok) => ok && onClose())}
          >
            Delete
          </BusyButton>
        </>
      }
    >
      <p>
        {report?.name} and its public link go for good
        {report?.link ? ": the link stops working at once." : "."}
      </p>
      <FormErrors messages={task.errors.map((e) => e.message)} />
    </Dialog>
  );
}
