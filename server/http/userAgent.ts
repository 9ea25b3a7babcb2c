/**
 * A short, human description of a browser ("Firefox on Windows") for the person's list of
 * sessions. Only this summary is stored, not the full User-Agent header. Order matters:
 * Edge and Opera also say "Chrome", Chrome also says "Safari".
 */
const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrome\/|CriOS\/|Chromium\//, "Chrome"],
  [/Version\/[\d.]+.*Safari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/iPhone/, "iPhone"],
  [/iPad/, "iPad"],
  [/Android/, "Android"],
  [/CrOS/, "ChromeOS"],
  [/Windows/, "Windows"],
  [/Macintosh|Mac OS X/, "macOS"],
  [/Linux/, "Linux"],
];

const UNKNOWN = "Unknown browser";

/** "Chrome on Linux", "Safari on iPhone", or "Unknown browser" for anything else. */
export function describeBrowser(header: string | undefined): string {
  if (!header) return UNKNOWN;
  const browser = BROWSERS.find(([re]) => re.test(header))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(header))?.[1];
  if (!browser) return system ? `Unknown browser on ${system}` : UNKNOWN;
  return system ? `${browser} on ${system}` : browser;
}
