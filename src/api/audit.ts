import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";
import { MAX_ID, orDefault, timezoneField } from "./fields.ts";

/*
 * The audit trail (issue 37): who changed what, when, from what to what, for Administrators;
 * and the check that the trail was not edited afterwards.
 */

export const AUDIT_PAGE = 100;
const idText = (what: string) =>
  z
    .string()
    .check(
      z.refine(
        (v) => /^[1-9]\d{0,9}$/.test(v) && Number(v) <= MAX_ID,
        `${what} must be a number from 1 to ${MAX_ID}.`,
      ),
    );
const epochText = (what: string) =>
  z.string().check(z.refine((v) => /^\d{1,11}$/.test(v), `${what} must be a time in epoch seconds.`));

/** The filters the viewer, the export and their URL share. */
export const AuditFilterSchema = z.object({
  /** The person (their address as recorded), exactly, any case. */
  actor: z.optional(
    z.string().check(z.trim(), z.maxLength(254, "A person's address is at most 254 characters.")),
  ),
  deviceId: z.optional(idText("deviceId")),
  /** An action, or its family ("device" matches device.rename and device.link.create). */
  action: z.optional(
    z
      .string()
      .check(z.refine((v) => /^[a-z][a-z.]{0,63}$/.test(v), "An action is a name such as device.rename.")),
  ),
  from: z.optional(epochText("from")),
  to: z.optional(epochText("to")),
});
export type AuditFilter = z.output<typeof AuditFilterSchema>;

export const AuditEntrySchema = z.object({
  seq: z.number(),
  at: z.number(),
  actorKind: z.string(),
  actor: z.string(),
  action: z.string(),
  entityType: z.nullable(z.number()),
  entityId: z.nullable(z.string()),
  deviceId: z.nullable(z.number()),
  deviceName: z.nullable(z.string()),
  old: z.nullable(z.record(z.string(), z.unknown())),
  new: z.nullable(z.record(z.string(), z.unknown())),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const listAudit = endpoint({
  method: "get",
  path: "/api/v1/audit",
  host: "api",
  body: "query",
  request: z.extend(AuditFilterSchema, {
    /** The page after this row (the `next` of the page before). */
    before: z.optional(idText("before")),
  }),
  response: z.object({
    entries: z.array(AuditEntrySchema),
    /** Pass as `before` for the next page; null on the last. */
    next: z.nullable(z.number()),
    /** Who and what appear in the trail, for the filters. */
    actors: z.array(z.string()),
    actions: z.array(z.string()),
  }),
  summary: `The subscription's audit trail, newest first, ${AUDIT_PAGE} rows a page (Administrators).`,
});

export const exportAudit = endpoint({
  method: "get",
  path: "/api/v1/audit/export.csv",
  host: "api",
  body: "query",
  request: z.extend(AuditFilterSchema, { timezone: orDefault(timezoneField, "UTC") }),
  response: z.string(),
  summary: "The trail as CSV (streamed, newest first), times in the time zone asked for (Administrators).",
});

export const verifyAuditTrail = endpoint({
  method: "post",
  path: "/api/v1/audit/verify",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({
    rows: z.number(),
    intact: z.boolean(),
    /** The first row that does not fit, and why; null when every row fits. */
    firstFault: z.nullable(z.object({ seq: z.number(), why: z.string() })),
    faults: z.number(),
    /**
     * When the newest of the chain's heads kept outside the database (that this instance
     * anchored) was sealed: the check also compared the chain with them. Null without one.
     */
    anchoredAt: z.nullable(z.string()),
  }),
  summary: "Walks the subscription's audit chain and names the first row that does not fit (Administrators).",
});
