import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import {
  $reportVisitors,
  loadReportVisitors,
  setVisitorsMaySubscribe,
} from "../../src/stores/reportVisitors.ts";

/** The report form's visitor subscriptions: the switch and the count of confirmed subscribers. */
export function VisitorSettings({ reportId }: { reportId: number }) {
  const state = useStore($reportVisitors);
  useEffect(() => void loadReportVisitors(reportId), [reportId]);
  if (state.status === "loading") return null;
  if (state.status === "failed") return <p role="alert">{state.message}</p>;
  const { visitorsMaySubscribe, subscriberCount } = state.value;
  return (
    <fieldset className="report-visitors" style={{ marginTop: "2rem" }}>
      <legend>Visitor subscriptions</legend>
      <label>
        <input
          type="checkbox"
          role="switch"
          checked={visitorsMaySubscribe}
          disabled={state.busy}
          onChange={(e) => void setVisitorsMaySubscribe(reportId, e.target.checked)}
        />
        Visitors may subscribe
      </label>
      <small>
        {subscriberCount === 1 ? "1 confirmed subscriber" : `${subscriberCount} confirmed subscribers`}.
        Visitors of the public link can ask for an email when an alarm triggers or clears on this report's
        channels. Saved at once.
      </small>
      {state.error && <p role="alert">{state.error}</p>}
    </fieldset>
  );
}
