import type { Schedule } from "../../src/api/reportSchedules.ts";

export const WEEKDAYS = [
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
] as const;
export const HOURS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, "0")}:00`);
const FORMATS = { pdf: "PDF", csv: "CSV", both: "PDF and CSV" } as const;

/** "Weekly on Monday at 07:00 (America/New_York), PDF, °F". */
export function scheduleText(s: Schedule): string {
  const when =
    s.cadence === "daily"
      ? "Daily"
      : s.cadence === "weekly"
        ? `Weekly on ${WEEKDAYS[s.weekday - 1]}`
        : "Monthly on the 1st";
  return `${when} at ${HOURS[s.hour]} (${s.timeZone}), ${FORMATS[s.format]}, °${s.scale}`;
}
