/*
 * The live socket's address and timing, apart from the message schemas (live.ts) so that a
 * page's live store loads no schema library.
 */

/** The one websocket address. */
export const LIVE_PATH = "/ws";
/** The server sends a heartbeat this often; a client that hears nothing for 2.5 of them reconnects. */
export const HEARTBEAT_SECONDS = 20;
/** Close codes: 4000 + the HTTP status of a refusal (the client does not reconnect); 1001 on shutdown. */
export const REFUSED_CLOSE_BASE = 4000;

/**
 * The websocket address for a configured base ('' = this page's origin): http becomes ws,
 * https wss; a ws: or wss: origin stays as it is.
 */
export function socketUrl(wsBase: string, pageOrigin: string): string {
  const url = new URL(LIVE_PATH, wsBase || pageOrigin);
  if (url.protocol === "http:") url.protocol = "ws:";
  if (url.protocol === "https:") url.protocol = "wss:";
  return url.toString();
}

/** The origin a Content-Security-Policy must name for the websocket (https: does not cover wss:). */
export const socketOrigin = (wsBase: string): string => new URL(socketUrl(wsBase, wsBase)).origin;
