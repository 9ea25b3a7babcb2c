import { onTestFinished } from "vitest";
import { hashesWaiting, withHashSlot } from "../../server/services/passwords.ts";

/**
 * Takes every place of the password-hash queue (however many cores give it) until one more
 * hash waits, and gives them back when the test ends, failed or not: a hash asked for
 * meanwhile waits its turn. Returns what gives them back sooner.
 */
export function holdHashPlaces(): () => Promise<void> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const holders: Promise<unknown>[] = [];
  // Each call takes a place or joins the queue before it returns (hashQueue.ts).
  while (hashesWaiting() === 0) holders.push(withHashSlot(null, () => gate).catch(() => {}));
  const release = async () => {
    open();
    await Promise.all(holders);
  };
  onTestFinished(release);
  return release;
}

/** Resolves once `n` more hashes wait for a place than when it was called. */
export async function untilWaiting(n: number) {
  const target = hashesWaiting() + n;
  while (hashesWaiting() < target) await new Promise((r) => setTimeout(r, 5));
}
