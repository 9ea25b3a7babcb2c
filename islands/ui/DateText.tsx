import type { EpochSeconds } from "../../src/domain/brand.ts";
import { formatDate, formatDateTime } from "../../src/domain/dates.ts";

interface Props {
  at: EpochSeconds;
  /** The account's IANA time zone; UTC when absent or unknown. */
  zone?: string | undefined;
  /** 'MMMM D, YYYY, h:mm A' (device push times) instead of 'MMM DD, YYYY'. */
  withTime?: boolean;
}

/** A moment as the spec writes it, in a <time> whose datetime machines can read. */
export function DateText({ at, zone, withTime = false }: Props) {
  const text = withTime ? formatDateTime(at, zone) : formatDate(at, zone);
  return <time dateTime={new Date(at * 1000).toISOString()}>{text}</time>;
}
