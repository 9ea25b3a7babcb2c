import type { Sample } from "./probe.ts";

/** The requests of a run, by how they ended. */
export interface Tally {
  total: number;
  /** A whole answer below 500. */
  answered: number;
  /** 503 with Retry-After: the clean "not now". */
  unavailable: number;
  /** Nothing listening: the clean refusal between two processes. */
  refused: number;
  /** The connection closed before any answer (a keep-alive socket closed as the request left). */
  dropped: number;
  truncated: number;
  timeouts: number;
  /** Any other 5xx, or a 503 without Retry-After. */
  serverErrors: number;
  other: number;
  otherExample: string;
}

export function tally(samples: Sample[]): Tally {
  const t: Tally = {
    total: samples.length,
    answered: 0,
    unavailable: 0,
    refused: 0,
    dropped: 0,
    truncated: 0,
    timeouts: 0,
    serverErrors: 0,
    other: 0,
    otherExample: "",
  };
  for (const s of samples) {
    if (s.failure === "refused") t.refused++;
    else if (s.failure === "dropped") t.dropped++;
    else if (s.failure === "truncated") t.truncated++;
    else if (s.failure === "timeout") t.timeouts++;
    else if (s.failure === "other") {
      t.other++;
      t.otherExample ||= s.text;
    } else if (s.status === 503 && s.retryAfter) t.unavailable++;
    else if (s.status >= 500) {
      t.serverErrors++;
      t.otherExample ||= `${s.status} ${s.text.slice(0, 120)}`;
    } else t.answered++;
  }
  return t;
}
