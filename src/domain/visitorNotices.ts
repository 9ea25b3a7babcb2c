// When a visitor subscribed to a public report hears of its alarms (issue 36): at most one
// message per report and address per window; what arrives inside the window waits for its end.

/** One message per report and address per this long. */
export const VISITOR_WINDOW_MS = 10 * 60_000;

/** When the next message to a subscriber may go: at once after a quiet window, else at its end. */
export function nextNoticeAt(lastSentAt: Date | null, now: Date): Date {
  if (!lastSentAt) return now;
  const end = new Date(lastSentAt.getTime() + VISITOR_WINDOW_MS);
  return end > now ? end : now;
}

/** What a move says to a visitor: only the moves they subscribed to. */
export const VISITOR_MOVES = ["triggered", "cleared"] as const;
export type VisitorMove = (typeof VISITOR_MOVES)[number];
export const isVisitorMove = (move: string): move is VisitorMove =>
  (VISITOR_MOVES as readonly string[]).includes(move);
