// A zone's UTC offset for times read in order, as zoneClock's `offset` gives it (the offset at
// the start of each quarter hour) but with a fraction of its Intl calls: a year of minutes asks
// zoneClock for 35,040 quarter hours, each an Intl.formatToParts costing microseconds. This one
// asks once an hour and, where two hours differ, halves the hour down to the quarter that
// changed. It assumes what every zone's history shows: an offset lasts at least an hour.
import { zoneOffsetSeconds } from "./zoneTime.ts";
import { isKnownTimezone } from "./timezones.ts";

const QUARTER_HOUR = 900;
/** Quarter hours per probe. */
const STRIDE = 4;

/** `(at) => offset seconds east of UTC` for one zone (UTC when unknown), fastest when times rise. */
export function zoneOffsets(zone: string): (at: number) => number {
  const name = isKnownTimezone(zone) ? zone : "UTC";
  if (name === "UTC") return () => 0;
  // The last probe is kept: one span's end is the next span's start.
  let probed = Number.NaN;
  let probedOffset = 0;
  const probe = (block: number) => {
    if (block !== probed) [probed, probedOffset] = [block, zoneOffsetSeconds(block * QUARTER_HOUR, name)];
    return probedOffset;
  };
  // Blocks [from, to) share `offset`.
  let from = 0;
  let to = 0;
  let offset = 0;
  const learn = (block: number) => {
    const start = Math.floor(block / STRIDE) * STRIDE;
    const first = probe(start);
    const next = probe(start + STRIDE);
    let end = start + STRIDE;
    if (next !== first) {
      // The first quarter hour of the probe span whose offset is no longer `first`.
      let lo = start;
      let hi = start + STRIDE;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (probe(mid) === first) lo = mid;
        else hi = mid;
      }
      end = hi;
    }
    if (block < end) [from, to, offset] = [start, end, first];
    else [from, to, offset] = [end, start + STRIDE, probe(end)];
  };
  return (at) => {
    const block = Math.floor(at / QUARTER_HOUR);
    if (block < from || block >= to) learn(block);
    return offset;
  };
}
