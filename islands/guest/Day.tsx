import { epochSeconds } from "../../src/domain/brand.ts";
import { formatDate, visitorZone } from "../../src/domain/dayText.ts";

/**
 * A day as 'MMM DD, YYYY' in the visitor's time zone. The runtime's Intl does it here, not
 * ui/DateText (Temporal): the polyfill would double what this page downloads.
 */
export function Day({ at }: { at: number }) {
  return (
    <time dateTime={new Date(at * 1000).toISOString()}>{formatDate(epochSeconds(at), visitorZone())}</time>
  );
}
