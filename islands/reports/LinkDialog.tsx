import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import type { ReportSummary } from "../../src/api/reportBuilder.ts";
import { $reportPrefs } from "../../src/stores/reportList.ts";
import {
  $linkTask,
  copyLink,
  expiryInput,
  expiryOf,
  kioskReportUrl,
  pauseLink,
  publicReportUrl,
  setLinkExpiry,
  shareReport,
  unshareReport,
} from "../../src/stores/reportLinks.ts";
import { BusyButton } from "../ui/BusyButton.tsx";
import { Dialog } from "../ui/Dialog.tsx";
import { Field, FormErrors } from "../ui/Field.tsx";

export const COPIED = "Copied!";

interface Props {
  report: ReportSummary | null;
  editable: boolean;
  onClose: () => void;
}

/**
 * A report's public link: its address (copy), state and views; for editors create,
 * regenerate, pause or resume, an expiry date (the end of that day in the person's zone)
 * and delete. Deleting or regenerating makes the old address fail at once.
 */
export function LinkDialog({ report, editable, onClose }: Props) {
  return (
    <Dialog
      title={report ? `Public link: ${report.name}` : "Public link"}
      open={report !== null}
      onClose={onClose}
    >
      {/* A new expiry from the server starts the date field afresh. */}
      {report && <LinkBody key={report.link?.expiresAt ?? "none"} report={report} editable={editable} />}
    </Dialog>
  );
}

function LinkBody({ report, editable }: { report: ReportSummary; editable: boolean }) {
  const task = useStore($linkTask);
  const { zone } = useStore($reportPrefs);
  const link = report.link;
  const [expiry, setExpiry] = useState(expiryInput(link?.expiresAt ?? null, zone));
  const errors = <FormErrors messages={task.errors.map((e) => e.message)} />;
  if (!link)
    return (
      <>
        <p>This report is not shared. A link shows its chart to anyone who has it, without signing in.</p>
        {editable && (
          <BusyButton
            type="button"
            busy={task.busy}
            busyLabel="Creating..."
            onClick={() => void shareReport(report.id)}
          >
            Create link
          </BusyButton>
        )}
        {errors}
      </>
    );
  const expiryPassed = link.state === "expired";
  return (
    <>
      <CopyField hash={link.publicHash} />
      <p className="link-facts">
        <span className={`link-state link-${link.state}`}>
          {link.state === "live"
            ? "Live"
            : link.state === "paused"
              ? "Paused: the link shows 'Invalid Report Link'"
              : "Expired: the link shows 'Invalid Report Link'"}
        </span>{" "}
        · {report.views30Days} {report.views30Days === 1 ? "view" : "views"} in the last 30 days
      </p>
      <p className="link-kiosk">
        For a wall display or kiosk, open{" "}
        <a href={kioskReportUrl(link.publicHash)} target="_blank" rel="noopener">
          the display view
        </a>
        : the current readings large beside the chart, refreshed every 30 seconds, without controls.
      </p>
      {editable && (
        <>
          <div className="link-expiry">
            <div>
              <Field
                label={`Expires after (${zone})`}
                type="date"
                value={expiry}
                hint={
                  expiryPassed
                    ? "This date has passed: the link no longer opens."
                    : "Leave empty to keep the link open."
                }
                onChange={(e) => setExpiry(e.target.value)}
              />
            </div>
            <BusyButton
              type="button"
              className="secondary"
              busy={task.busy}
              busyLabel="Saving..."
              onClick={() => void setLinkExpiry(report.id, expiryOf(expiry, zone))}
            >
              Save expiry
            </BusyButton>
          </div>
          <div className="link-actions">
            <BusyButton
              type="button"
              className="secondary"
              busy={task.busy}
              busyLabel="Saving..."
              onClick={() => void pauseLink(report.id, link.state !== "paused")}
            >
              {link.state === "paused" ? "Resume link" : "Pause link"}
            </BusyButton>
            <BusyButton
              type="button"
              className="secondary"
              busy={task.busy}
              busyLabel="Saving..."
              onClick={() => void shareReport(report.id, link.expiresAt)}
            >
              Regenerate link
            </BusyButton>
            <BusyButton
              type="button"
              className="secondary outline"
              busy={task.busy}
              busyLabel="Saving..."
              onClick={() => void unshareReport(report.id)}
            >
              Delete link
            </BusyButton>
          </div>
        </>
      )}
      {errors}
    </>
  );
}

/** The address, read-only, with Copy; 'Copied!' shows as its tooltip for two seconds. */
function CopyField({ hash }: { hash: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return undefined;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const url = publicReportUrl(hash);
  return (
    <div className="copy-field">
      <div>
        <Field label="Link address" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
      </div>
      <button
        type="button"
        className="secondary"
        data-tooltip={copied ? COPIED : undefined}
        data-placement="top"
        onClick={() => void copyLink(hash).then(setCopied)}
      >
        Copy
      </button>
      <span role="status" className="visually-hidden">
        {copied ? COPIED : ""}
      </span>
      <a href={url} target="_blank" rel="noopener">
        Open
      </a>
    </div>
  );
}
