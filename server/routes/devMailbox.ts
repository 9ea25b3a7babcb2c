import { Hono } from "hono";
import { latestMail } from "../data/outbox.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { isLocalRequest, MAILBOX_LOCAL_ONLY } from "../http/local.ts";

const MAILBOX = { method: "get", path: "/dev/mailbox" } as const;

const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const linkify = (s: string) => escape(s).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>');

/**
 * Demo mode only: the outbox as a page, so a person can click emailed links without SMTP.
 * It shows every reset and registration link, so it answers this computer only, even when
 * DEMO=1 shares the rest of the demo.
 */
export function devMailboxRoutes(deps: Deps) {
  return new Hono().get(MAILBOX.path, guard(MAILBOX, deps), async (c) => {
    if (!isLocalRequest(c)) return c.text(MAILBOX_LOCAL_ONLY, 403);
    const mails = await latestMail(deps.db, 50);
    const items = mails
      .map(
        (m) =>
          `<article><h2>${escape(m.subject)}</h2><p><small>To ${escape(m.to)} · ${m.createdAt.toISOString()}</small></p><pre>${linkify(m.text)}</pre></article>`,
      )
      .join("");
    c.header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
    c.header("Cache-Control", "no-store");
    return c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev mailbox</title><style>body{font-family:sans-serif;max-width:60rem;margin:2rem auto}pre{white-space:pre-wrap}</style></head><body><main><h1>Dev mailbox</h1><p>Mail the portal would send (demo mode, no SMTP_URL). Newest first.</p>${items || "<p>No mail yet.</p>"}</main></body></html>`,
    );
  });
}
