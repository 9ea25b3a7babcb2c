import { Hono } from "hono";
import { unsubscribeKnown } from "../data/reportSchedules.ts";
import { unsubscribeRecorded } from "../flows/reportRecords.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { UNSUBSCRIBE_GONE, UNSUBSCRIBED } from "../../src/api/reportSchedules.ts";

const PAGE = { method: "get", path: "/report-unsubscribe" } as const;
const ONE_CLICK = { method: "post", path: "/report-unsubscribe" } as const;

const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A small page of its own (no script): it must work from any mail client's browser. */
function page(body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Scheduled report</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}button{font:inherit;padding:.6rem 1.2rem;border-radius:.4rem;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer}button:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}</style></head><body><main>${body}</main></body></html>`;
}

/**
 * One-click unsubscribe from a scheduled report (RFC 8058). The emailed link opens a page with
 * a button and changes nothing, so a mail scanner that follows links unsubscribes nobody; the
 * button, and a mail client's `List-Unsubscribe=One-Click` POST to the same address, take the
 * address off the schedule at once. The token is the only key (256 bits, only its hash kept).
 */
export function reportUnsubscribeRoutes(deps: Deps) {
  const headers = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
  };
  return new Hono()
    .get(PAGE.path, guard(PAGE, deps), async (c) => {
      const token = c.req.query("token") ?? "";
      if (!(await unsubscribeKnown(deps.db, token)))
        return c.html(page(`<h1>Unsubscribe</h1><p role="alert">${UNSUBSCRIBE_GONE}</p>`), 404, headers);
      const action = `/report-unsubscribe?token=${encodeURIComponent(token)}`;
      return c.html(
        page(
          `<h1>Unsubscribe</h1><p>Stop mailing this scheduled report to your address?</p><form method="post" action="${escape(action)}"><button type="submit">Unsubscribe</button></form>`,
        ),
        200,
        headers,
      );
    })
    .post(ONE_CLICK.path, guard(ONE_CLICK, deps), async (c) => {
      const done = await unsubscribeRecorded(deps, c.req.query("token") ?? "");
      const text = done ? UNSUBSCRIBED : UNSUBSCRIBE_GONE;
      return c.html(page(`<h1>Unsubscribe</h1><p role="status">${text}</p>`), done ? 200 : 404, headers);
    });
}
