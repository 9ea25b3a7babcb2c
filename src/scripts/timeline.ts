import type { EpochSeconds } from "../domain/brand.ts";
import { formatDate, formatTime } from "../domain/dayText.ts";
import type { TimelineKind } from "../domain/timeline.ts";
import { element } from "./paint.ts";

/** The order's life as a list, each moment in the visitor's own time zone. */
export function paintTimeline(
  list: HTMLOListElement,
  events: readonly { at: number; kind: TimelineKind; text: string }[],
  zone: string,
) {
  list.replaceChildren(
    ...events.map((e) => {
      const item = element("li", undefined, `timeline-${e.kind}`);
      const time = element(
        "time",
        `${formatDate(e.at as EpochSeconds, zone)}, ${formatTime(e.at as EpochSeconds, zone)}`,
      );
      time.dateTime = new Date(e.at * 1000).toISOString();
      item.append(time, element("span", e.text));
      return item;
    }),
  );
}
