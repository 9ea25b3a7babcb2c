const DAY_MS = 86_400_000;

/**
 * Runs `ensure` (creating the samples' months ahead, server/data/partitions.ts) at once and then
 * once a day; returns the function that stops it. The task is passed in because core imports
 * nothing else of the server. A failure is logged and retried the next day: months are created
 * three ahead, so one missed day loses nothing.
 */
export function startPartitionJob(
  ensure: (now: Date) => Promise<unknown>,
  opts: { intervalMs?: number; now?: () => Date } = {},
): () => void {
  let stopped = false;
  const run = async () => {
    try {
      await ensure((opts.now ?? (() => new Date()))());
    } catch (e) {
      if (!stopped)
        console.warn(JSON.stringify({ level: "warn", what: "sample partitions", error: String(e) }));
    }
  };
  void run();
  const timer = setInterval(() => void run(), opts.intervalMs ?? DAY_MS);
  // The daily timer alone must not keep a stopping process alive.
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
