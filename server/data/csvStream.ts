/** A text's UTF-8 bytes: Node's Buffer encodes a chunk several times faster than TextEncoder. */
const utf8 = (text: string): Uint8Array => Buffer.from(text, "utf8");
/** A part as bytes: texts encoded, bytes (already UTF-8) passed on as they are. */
const bytesOf = (part: string | Uint8Array): Uint8Array => (typeof part === "string" ? utf8(part) : part);

/**
 * A CSV file as a byte stream: a byte-order mark (so spreadsheet programs read '°C' as UTF-8)
 * and the header first, then each text (or UTF-8 bytes) `parts` yields, read only when the reader asks for more
 * (backpressure: a slow client holds at most one chunk in memory). Cancelling (the client went
 * away) stops the reading. Used by the device download and the report export.
 */
export function csvFileStream(
  header: string,
  parts: AsyncGenerator<string | Uint8Array, void, undefined> | null,
): ReadableStream<Uint8Array> {
  let headerSent = false;
  return new ReadableStream<Uint8Array>(
    {
      // Each pull enqueues something or closes: a pull that did neither would leave the
      // reader waiting forever.
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(utf8("\uFEFF" + header));
          return;
        }
        const next = parts ? await parts.next() : { done: true as const };
        if (next.done) controller.close();
        else controller.enqueue(bytesOf(next.value));
      },
      async cancel() {
        await parts?.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}
