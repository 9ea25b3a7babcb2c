import { useStore } from "@nanostores/react";
import { useEffect, type FormEvent } from "react";
import { epochSeconds } from "../../src/domain/brand.ts";
import { formatPushTime } from "../../src/domain/deviceView.ts";
import { $devicePrefs } from "../../src/stores/device.ts";
import {
  $explore,
  $exploreChart,
  $exploreRange,
  $heldFrom,
  $rangeErrors,
  loadHistory,
  zonedInput,
  type ChartData,
  type RangeDraft,
} from "../../src/stores/explore.ts";
import { $router } from "../../src/stores/router.ts";
import { devicePath } from "../devices/DeviceTable.tsx";
import { LoadFailed } from "../devices/LoadFailed.tsx";
import HistoryChart from "./HistoryChart.tsx";
import { RangeFields } from "./RangeFields.tsx";
import { ChartComments } from "./ChartComments.tsx";
import { $exploreChartMarks, pickCommentTime } from "../../src/stores/exploreMarks.ts";
import "../../src/styles/devices.css";

const now = () => Date.now() / 1000;

/**
 * /s/sensor-data/explore/{channelKey}: one channel's history as a chart with a range picker,
 * values in the account's temperature scale and times in its zone.
 */
export default function ExplorePage() {
  const page = useStore($router);
  const channelKey = page?.route === "explore" ? page.params.channelKey : "";
  const state = useStore($explore);
  const range = useStore($exploreRange);
  useEffect(() => void loadHistory(channelKey, $exploreRange.get(), now()), [channelKey]);
  const title = state.status === "ready" ? state.history.channel.name : "Sensor data";
  return (
    <section className="explore-page" aria-labelledby="explore-title">
      <header className="page-head">
        <h1 id="explore-title">{title}</h1>
        {state.status === "ready" && (
          <a href={devicePath(state.history.deviceId)}>{state.history.deviceName}</a>
        )}
      </header>
      {state.status === "error" && state.notFound ? (
        <LoadFailed message={state.message} />
      ) : (
        <>
          <RangeForm channelKey={channelKey} draft={range} />
          {state.status === "error" && (
            <LoadFailed message={state.message} onRetry={() => void loadHistory(channelKey, range, now())} />
          )}
          {state.status === "loading" && <p aria-busy="true">Loading readings...</p>}
          <ChartPart channelKey={channelKey} />
        </>
      )}
    </section>
  );
}

/** The range picker: a preset applies at once, a custom range with Show. */
function RangeForm({ channelKey, draft }: { channelKey: string; draft: RangeDraft }) {
  const { zone } = useStore($devicePrefs);
  const errors = useStore($rangeErrors);
  const change = (next: RangeDraft) => {
    // A custom range starts from the last 24 hours, in the account's zone.
    const filled =
      next.preset === "custom" && !next.from && !next.to
        ? { ...next, from: zonedInput(now() - 86_400, zone), to: zonedInput(now(), zone) }
        : next;
    $exploreRange.set(filled);
    if (filled.preset !== "custom") void loadHistory(channelKey, filled, now());
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void loadHistory(channelKey, draft, now());
  };
  return (
    <form className="range-form" noValidate onSubmit={submit} aria-label="Readings shown">
      <RangeFields draft={draft} zoneLabel={zone} errors={errors} onChange={change} />
      {draft.preset === "custom" && <button type="submit">Show</button>}
    </form>
  );
}

/** The chart and its summary in words, or why there is nothing to draw. */
function ChartPart({ channelKey }: { channelKey: string }) {
  const data = useStore($exploreChart);
  const { zone } = useStore($devicePrefs);
  const marks = useStore($exploreChartMarks);
  const heldFrom = useStore($heldFrom);
  if (!data) return null;
  const held = heldFrom !== null && (
    <p className="muted">
      Your plan shows readings from {formatPushTime(epochSeconds(heldFrom), zone)}; older ones are not shown.
    </p>
  );
  if (!data.points.length)
    return (
      <>
        {held}
        <p className="empty-state">No readings in this range. Choose a longer or earlier range.</p>
      </>
    );
  return (
    <figure className="history-chart">
      {held}
      <HistoryChart data={data} zone={zone} marks={marks} onPick={pickCommentTime} />
      <figcaption>
        <Summary data={data} zone={zone} />
      </figcaption>
      <ChartComments channelKey={channelKey} marks={marks} zone={zone} />
    </figure>
  );
}

/** The chart in words: lowest, highest and latest reading, and how the points were made. */
function Summary({ data, zone }: { data: ChartData; zone: string }) {
  const { summary, unit, bucketSeconds } = data;
  if (!summary) return null;
  const at = (ms: number) => formatPushTime(epochSeconds(ms / 1000), zone);
  const u = unit ? ` ${unit}` : "";
  return (
    <>
      <dl className="chart-summary">
        <div>
          <dt>Lowest</dt>
          <dd>{`${summary.low}${u}`}</dd>
        </div>
        <div>
          <dt>Highest</dt>
          <dd>{`${summary.high}${u}`}</dd>
        </div>
        <div>
          <dt>Latest</dt>
          <dd>
            {`${summary.latest[1]}${u}`} <span className="muted">at {at(summary.latest[0])}</span>
          </dd>
        </div>
      </dl>
      <p className="muted">
        {bucketSeconds
          ? `Each pair of points is the lowest and highest reading of ${bucketText(bucketSeconds)}. Times in ${zone}.`
          : `${summary.count} readings. Times in ${zone}.`}
      </p>
    </>
  );
}

const bucketText = (s: number) =>
  s % 3600 === 0 ? `${s / 3600} ${s === 3600 ? "hour" : "hours"}` : `${Math.round(s / 60)} minutes`;
