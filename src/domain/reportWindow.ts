// The time window of a report (spec section 2): the last timeInterval seconds when above 0,
// otherwise startDate to endDate. Epoch seconds throughout; `now` is passed in.
import { clampWindow } from "./retention.ts";

export interface ReportTiming {
  timeInterval: number;
  startDate: number | null;
  endDate: number | null;
}
export interface TimeWindow {
  start: number;
  end: number;
}

/** A report without a usable window shows the last day. */
export const DEFAULT_WINDOW_SECONDS = 86_400;
/** The longest window a report shows (about five years); a longer one keeps its newest part. */
export const MAX_WINDOW_SECONDS = 1827 * 86_400;

export const START_BEFORE_END = "start must be before end.";
export const OUTSIDE_WINDOW = "The requested range is outside the report's time window.";

/**
 * The report's own window at `now`, starting no earlier than `oldest` (the owner's plan shows
 * no data before it; a window wholly older is the empty window at `oldest`).
 */
export function reportWindow(timing: ReportTiming, now: number, oldest: number | null = null): TimeWindow {
  const { timeInterval, startDate, endDate } = timing;
  let window: TimeWindow;
  if (timeInterval > 0) window = { start: now - timeInterval, end: now };
  else if (startDate !== null && endDate !== null && startDate < endDate)
    window = { start: startDate, end: endDate };
  else window = { start: now - DEFAULT_WINDOW_SECONDS, end: now };
  return clampWindow(
    { start: Math.max(window.start, window.end - MAX_WINDOW_SECONDS), end: window.end },
    oldest,
  );
}

/**
 * The part of the report's window a visitor asked for (a zoom, or a rolling window computed a
 * moment ago): missing ends default to the window's, the rest is clipped to it, so a link
 * never opens data outside what its report shows. A range wholly older than the window is the
 * empty window at its start (older data is held back, as by the plan's limit, not refused); an
 * error message for a backwards range or one wholly after the window.
 */
export function requestedWindow(
  window: TimeWindow,
  asked: { start?: number | undefined; end?: number | undefined },
): TimeWindow | { error: string } {
  // A window the plan has wholly aged out shows nothing, whatever part of it is asked for.
  if ((asked.start === undefined && asked.end === undefined) || window.start === window.end) return window;
  const start = asked.start ?? window.start;
  const end = asked.end ?? window.end;
  if (start >= end) return { error: START_BEFORE_END };
  if (end <= window.start) return { start: window.start, end: window.start };
  const clipped = { start: Math.max(start, window.start), end: Math.min(end, window.end) };
  if (clipped.start >= clipped.end) return { error: OUTSIDE_WINDOW };
  return clipped;
}
