import { epochSeconds, type EpochSeconds } from "../../src/domain/brand.ts";

/** A stored time as the API's epoch seconds (the spec's `timeCreated`, `lastSeenAt`, ...). */
export const secondsOf = (at: Date): EpochSeconds => epochSeconds(at.getTime() / 1000);
