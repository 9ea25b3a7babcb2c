import { setTimeout as sleep } from "node:timers/promises";

/** What one request ended with: an HTTP answer, or no answer at all (refused, reset, timed out). */
export type Outcome = { status: number; text: string } | { status: 0; text: string };

/** One request; a connection error or timeout is an outcome (status 0), never a throw. */
export async function send(url: string, init: RequestInit, timeoutMs = 30_000): Promise<Outcome> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    return { status: res.status, text: await res.text() };
  } catch (e) {
    return { status: 0, text: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

/** A short pause between a browser's retries, as a page's retry timer would wait. */
export const pause = () => sleep(150 + Math.random() * 250);

/** A random address in 10.0.0.0/8: each simulated browser its own (the card-testing limits count per address). */
export const randomAddress = () =>
  `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
