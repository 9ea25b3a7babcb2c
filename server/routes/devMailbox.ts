import { Hono } from "hono";
import { latestMail } from "../data/outbox.ts";
import { attachmentById, attachmentList } from "../data/outboxAttachments.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { isLocalRequest, MAILBOX_LOCAL_ONLY } from "../http/local.ts";

const MAILBOX = { method: "get", path: "/dev/mailbox" } as const;
const ATTACHMENT = { method: "get", path: "/dev/mailbox/attachments/:id" } as const;

const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const linkify = (s: string) => escape(s).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>');

/**
 * Demo mode only: the outbox as a page, so a person can click emailed links without SMTP.
 * It shows every reset and registration link, so it answers this computer only, even when
 * DEMO=1 shares the rest of the demo.
 */
export function devMailboxRoutes(deps: Deps) {
  return new Hono()
    .get(MAILBOX.path, guard(MAILBOX, deps), async (c) => {
      if (!isLocalRequest(c)) return c.text(MAILBOX_LOCAL_ONLY, 403);
      const mails = await latestMail(deps.db, 50);
      const files = await attachmentList(
        deps.db,
        mails.map((m) => m.id),
      );
      const filesOf = (id: number) =>
        files
          .filter((f) => f.outboxId === id)
          .map((f) => `<li><a href="/dev/mailbox/attachments/${f.id}">${escape(f.filename)}</a></li>`)
          .join("");
      const items = mails
        .map(
          (m) =>
            `<article><h2>${escape(m.subject)}</h2><p><small>To ${escape(m.to)} · ${m.createdAt.toISOString()}</small></p><pre>${linkify(m.text)}</pre>${filesOf(m.id) ? `<ul aria-label="Attachments">${filesOf(m.id)}</ul>` : ""}</article>`,
        )
        .join("");
      c.header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
      c.header("Cache-Control", "no-store");
      return c.html(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev mailbox</title><style>body{font-family:sans-serif;max-width:60rem;margin:2rem auto}pre{white-space:pre-wrap}</style></head><body><main><h1>Dev mailbox</h1><p>Mail the portal would send (demo mode, no SMTP_URL). Newest first.</p>${items || "<p>No mail yet.</p>"}</main></body></html>`,
      );
    })
    .get(ATTACHMENT.path, guard(ATTACHMENT, deps), async (c) => {
      if (!isLocalRequest(c)) return c.text(MAILBOX_LOCAL_ONLY, 403);
      const id = Number(c.req.param("id"));
      const file =
        Number.isSafeInteger(id) && id > 0 && id < 2 ** 31 ? await attachmentById(deps.db, id) : null;
      if (!file) return c.text("Not found.", 404);
      const safe = file.filename.replace(/[^\w .-]+/g, "_");
      return c.body(new Uint8Array(file.content), 200, {
        "content-type": file.contentType,
        "content-disposition": `attachment; filename="${safe}"`,
        "x-content-type-options": "nosniff",
        "cache-control": "no-store",
      });
    });
}
