/** Times n sequential requests until response headers arrive (time to first byte), in ms. */
export async function timeRequest(url: string, n: number, init?: () => RequestInit): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const res = await fetch(url, init?.());
    times.push(performance.now() - started);
    await res.arrayBuffer();
  }
  return times;
}

/** The middle value. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
