import { useEffect, useState } from "react";
import { epochSeconds, type EpochSeconds } from "../../src/domain/brand.ts";

/** The time now in epoch seconds, again every `seconds`: muting and "next push" follow the clock. */
export function useNow(seconds = 30): EpochSeconds {
  const [now, setNow] = useState(() => epochSeconds(Date.now() / 1000));
  useEffect(() => {
    const timer = setInterval(() => setNow(epochSeconds(Date.now() / 1000)), seconds * 1000);
    return () => clearInterval(timer);
  }, [seconds]);
  return now;
}
