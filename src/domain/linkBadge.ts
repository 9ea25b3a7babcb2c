// The status badge of a public report or device link (issue 36): a small SVG for a wiki or a
// status page, saying the name and one of three states. Pure: the server passes what it read.
import { escapeXml } from "./plainText.ts";
import { silentSince } from "./alerts.ts";

export type LinkState = "ok" | "alarm" | "silent";

/** The grace a badge gives a late push: the offline rule's default (src/api/alerts.ts). */
export const BADGE_GRACE_SECONDS = 300;
/** Names longer than this are cut with an ellipsis, so the badge stays small. */
export const BADGE_NAME_MAX = 32;

const LABEL: Record<LinkState, string> = { ok: "OK", alarm: "alarm", silent: "silent" };
const COLOR: Record<LinkState, string> = { ok: "#2e7d32", alarm: "#c62828", silent: "#616161" };

/**
 * Alarm when any alarm is open (triggered or acknowledged) on what the link shows; else silent
 * when one of its devices has not pushed by its last push + push interval + grace (the offline
 * rule's silence; a device that never pushed is silent too); else OK.
 */
export function linkState(
  openAlarms: number,
  devices: readonly { lastMessageAt: Date | null; pushInterval: number }[],
  now: Date,
): LinkState {
  if (openAlarms > 0) return "alarm";
  const silent = devices.some((d) => {
    const since = silentSince(d.lastMessageAt, d.pushInterval, BADGE_GRACE_SECONDS);
    return since === null || since < now;
  });
  return silent ? "silent" : "ok";
}

/** Text safe inside SVG markup. */

/** The name cut to BADGE_NAME_MAX characters (whole code points), with an ellipsis when cut. */
export function shortName(name: string): string {
  const chars = [...name.replace(/\s+/g, " ").trim()];
  return chars.length > BADGE_NAME_MAX ? `${chars.slice(0, BADGE_NAME_MAX - 1).join("")}…` : chars.join("");
}

/** Rough width of text at 11 px sans-serif: enough for a badge, no font metrics needed. */
const widthOf = (text: string) => Math.ceil([...text].length * 6.5) + 12;

/** The badge: the name on grey, the state on its colour; under 1 KB for any name. */
export function badgeSvg(name: string, state: LinkState): string {
  const left = shortName(name) || "status";
  const right = LABEL[state];
  const lw = widthOf(left);
  const rw = widthOf(right);
  const w = lw + rw;
  const label = escapeXml(`${left}: ${right}`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img">` +
    `<title>${label}</title>` +
    `<rect width="${lw}" height="20" fill="#555"/>` +
    `<rect x="${lw}" width="${rw}" height="20" fill="${COLOR[state]}"/>` +
    `<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">` +
    `<text x="6" y="14">${escapeXml(left)}</text>` +
    `<text x="${lw + 6}" y="14">${right}</text></g></svg>`
  );
}
