import { useStore } from "@nanostores/react";
import { getPagePath } from "@nanostores/router";
import { useEffect, useState } from "react";
import type { AuditEntry } from "../../src/api/audit.ts";
import { withMomentsIn } from "../../src/domain/auditTime.ts";
import { epochSeconds } from "../../src/domain/brand.ts";
import {
  actionName,
  datesBackwards,
  DATES_BACKWARDS,
  entryText,
  recordName,
  recordText,
} from "../../src/domain/auditText.ts";
import {
  $audit,
  $auditCheck,
  $auditFilter,
  $auditPrefs,
  checkAudit,
  fetchAuditCsv,
  loadAudit,
  setAuditFilter,
} from "../../src/stores/audit.ts";
import { $devices, loadDevices } from "../../src/stores/devices.ts";
import { $router } from "../../src/stores/router.ts";
import { BusyButton } from "../ui/BusyButton.tsx";
import { DateText } from "../ui/DateText.tsx";
import { EmptyState } from "../ui/EmptyState.tsx";
import { saveFile } from "../ui/saveFile.ts";
import { LoadFailed } from "../devices/LoadFailed.tsx";
import "./audit.css";

/**
 * /s/audit: who changed what and when, newest first, with the old and new values; filters by
 * person, device, action and day; the integrity check and the CSV export. Administrators only.
 */
export default function AuditPage() {
  const { allowed } = useStore($auditPrefs);
  if (!allowed)
    return (
      <section>
        <h1>Audit trail</h1>
        <p>Only Administrators can see the audit trail.</p>
      </section>
    );
  return (
    <section className="audit-page">
      <h1>Audit trail</h1>
      <p className="muted">
        Every change, sign-in and export in this subscription. Each row is chained to the one before it, so a
        row edited or removed afterwards shows up in the integrity check.
      </p>
      <Filters />
      <Tools />
      <Entries />
    </section>
  );
}

function Filters() {
  const filter = useStore($auditFilter);
  const audit = useStore($audit);
  const devices = useStore($devices);
  useEffect(() => {
    if ($devices.get().status !== "ready") void loadDevices();
  }, []);
  const facets = audit.status === "ready" ? audit.page : { actors: [], actions: [] };
  return (
    <form className="audit-filters" aria-label="Filter the audit trail" onSubmit={(e) => e.preventDefault()}>
      <label>
        Person
        <select value={filter.actor} onChange={(e) => setAuditFilter("actor", e.currentTarget.value)}>
          <option value="">Everyone</option>
          {[...new Set([...facets.actors, ...(filter.actor ? [filter.actor] : [])])].map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </label>
      <label>
        Device
        <select value={filter.deviceId} onChange={(e) => setAuditFilter("deviceId", e.currentTarget.value)}>
          <option value="">Every device</option>
          {devices.status === "ready" &&
            devices.list.map((d) => (
              <option key={d.id} value={String(d.id)}>
                {d.name}
              </option>
            ))}
        </select>
      </label>
      <label>
        Action
        <select value={filter.action} onChange={(e) => setAuditFilter("action", e.currentTarget.value)}>
          <option value="">Every action</option>
          {[...new Set([...facets.actions, ...(filter.action ? [filter.action] : [])])].map((a) => (
            <option key={a} value={a}>
              {actionName(a)}
            </option>
          ))}
        </select>
      </label>
      <label>
        From
        <input
          type="date"
          value={filter.from}
          onChange={(e) => setAuditFilter("from", e.currentTarget.value)}
        />
      </label>
      <label>
        To
        <input type="date" value={filter.to} onChange={(e) => setAuditFilter("to", e.currentTarget.value)} />
      </label>
    </form>
  );
}

function Tools() {
  const check = useStore($auditCheck);
  const { zone } = useStore($auditPrefs);
  const [exporting, setExporting] = useState<"idle" | "busy" | string>("idle");
  const exportCsv = async () => {
    setExporting("busy");
    const file = await fetchAuditCsv();
    if ("error" in file) return setExporting(file.error);
    saveFile(file.blob, file.fileName);
    setExporting("idle");
  };
  return (
    <div className="audit-tools">
      <BusyButton
        type="button"
        className="secondary"
        busy={check.status === "checking"}
        busyLabel="Checking..."
        onClick={() => void checkAudit()}
      >
        Check integrity
      </BusyButton>
      <BusyButton
        type="button"
        className="secondary outline"
        busy={exporting === "busy"}
        busyLabel="Exporting..."
        onClick={() => void exportCsv()}
      >
        Export CSV
      </BusyButton>
      <p role="status" className="audit-check">
        {check.status === "done" &&
          (check.intact
            ? `Intact: ${check.rows === 1 ? "the one row fits its chain" : `all ${check.rows.toLocaleString("en-US")} rows fit their chain`}${
                check.anchoredAt
                  ? `, which matches its heads kept outside the database up to ${withMomentsIn(check.anchoredAt, zone)}`
                  : ""
              }. Nothing was changed, removed or added behind the portal's back.`
            : `Not intact${check.first!.seq ? ` at row ${check.first!.seq}` : ""}: ${withMomentsIn(check.first!.why, zone)}${
                check.faults > 1 ? `, and ${check.faults - 1} more` : ""
              }.`)}
        {check.status === "failed" && check.message}
        {exporting !== "idle" && exporting !== "busy" && exporting}
      </p>
    </div>
  );
}

function Entries() {
  const state = useStore($audit);
  const { zone } = useStore($auditPrefs);
  const filter = useStore($auditFilter);
  if (datesBackwards(filter.from, filter.to))
    return <EmptyState title="Nothing recorded" text={DATES_BACKWARDS} />;
  if (state.status === "loading") return <p aria-busy="true">Loading the audit trail...</p>;
  if (state.status === "failed")
    return <LoadFailed message={state.message} onRetry={() => void loadAudit()} />;
  const { entries, next } = state.page;
  if (!entries.length)
    return <EmptyState title="Nothing recorded" text="No change, sign-in or export matches these filters." />;
  return (
    <>
      <div className="overflow-auto">
        <table className="audit-table">
          <thead>
            <tr>
              <th scope="col">Time ({zone})</th>
              <th scope="col">Person</th>
              <th scope="col">Action</th>
              <th scope="col">Device</th>
              <th scope="col">Old → new</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <Row key={e.seq} entry={e} zone={zone} />
            ))}
          </tbody>
        </table>
      </div>
      {next !== null && (
        <button
          type="button"
          className="secondary outline"
          aria-busy={state.more}
          disabled={state.more}
          onClick={() => void loadAudit(true)}
        >
          Show older
        </button>
      )}
    </>
  );
}

function Row({ entry: e, zone }: { entry: AuditEntry; zone: string }) {
  const text = entryText(e.action, e.old, e.new, zone);
  const record = recordText(e.action, e.entityId, recordName(e.old, e.new));
  return (
    <tr>
      <td data-label={`Time (${zone})`}>
        <DateText at={epochSeconds(e.at)} zone={zone} withTime />
      </td>
      <td data-label="Person">{e.actor}</td>
      <th scope="row" data-label="Action">
        {actionName(e.action)}
        {record && (
          <>
            <br />
            <small className="muted">{record}</small>
          </>
        )}
      </th>
      <td data-label="Device">
        {e.deviceId !== null &&
          (e.deviceName ? (
            <a href={getPagePath($router, "deviceDetails", { id: String(e.deviceId) })}>{e.deviceName}</a>
          ) : (
            <span className="muted">Device {e.deviceId} (removed)</span>
          ))}
      </td>
      {/* A request's cell starts "Filters:" itself; "Old → new" before it would misname it. */}
      <td data-label={"request" in text ? undefined : "Old → new"}>
        {"request" in text ? (
          <span className="audit-request">{text.request}</span>
        ) : (
          text.changes.length > 0 && (
            <ul className="audit-changes">
              {text.changes.map((l) => (
                <li key={l.field}>
                  <span className="muted">{l.field}:</span>{" "}
                  {l.from === null ? (
                    <ins>{l.to}</ins>
                  ) : l.to === null ? (
                    <>
                      <del>{l.from}</del> (removed)
                    </>
                  ) : (
                    <>
                      <del>{l.from}</del> → <ins>{l.to}</ins>
                    </>
                  )}
                </li>
              ))}
            </ul>
          )
        )}
      </td>
    </tr>
  );
}
