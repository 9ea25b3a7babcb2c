import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { auditFacets, auditPage, auditStream } from "../data/auditQueries.ts";
import { csvFileStream } from "../data/csvStream.ts";
import { csvText } from "../data/csvExport.ts";
import { deviceById } from "../data/devices.ts";
import { verifyAudit } from "../flows/auditVerify.ts";
import { sealChain } from "../data/auditSeal.ts";
import { record, userActor } from "../flows/audited.ts";
import { guard } from "../http/access.ts";
import { authOf } from "../http/auth.ts";
import { csvFileName } from "../http/csvFileName.ts";
import { inputOf } from "../http/input.ts";
import { reply } from "../http/reply.ts";
import { actionName, changesText, recordCell, recordName } from "../../src/domain/auditText.ts";
import { zoneClock } from "../../src/domain/zoneTime.ts";
import { AUDIT_PAGE, exportAudit, listAudit, verifyAuditTrail } from "../../src/api/audit.ts";
import { refuseCrossSiteRead } from "../http/origin.ts";

/** The Administrators' audit trail: the viewer's pages, the CSV export and the chain check. */
export function auditRoutes(deps: Deps) {
  const { db } = deps;
  return new Hono()
    .get(listAudit.path, guard(listAudit, deps), async (c) => {
      const { before, ...filter } = await inputOf(c, listAudit);
      const subscriptionId = authOf(c).subscription.id;
      // What is committed is chained before it is shown: the pages go by seq.
      await sealChain(db, subscriptionId, deps.config.auditKey, true, deps.anchors);
      const entries = await auditPage(
        db,
        subscriptionId,
        filter,
        before ? Number(before) : null,
        AUDIT_PAGE + 1,
      );
      const facets = await auditFacets(db, subscriptionId);
      return reply(c, listAudit, {
        entries: entries.slice(0, AUDIT_PAGE),
        next: entries.length > AUDIT_PAGE ? entries[AUDIT_PAGE - 1]!.seq : null,
        ...facets,
      });
    })
    .get(exportAudit.path, guard(exportAudit, deps), async (c) => {
      // It records a row with the filters as given: never for another site's link.
      refuseCrossSiteRead(c);
      const { timezone, ...filter } = await inputOf(c, exportAudit);
      const auth = authOf(c);
      // An export of the trail is itself recorded (issue 37: "data downloads and exports").
      // The device filter by the name the person picked (another subscription's id names none).
      const { deviceId, ...rest } = filter;
      const device = deviceId ? await deviceById(db, Number(deviceId)) : null;
      const named =
        deviceId === undefined
          ? {}
          : { device: device?.subscriptionId === auth.subscription.id ? device.name : `#${deviceId}` };
      await record(deps, {
        subscriptionId: auth.subscription.id,
        actor: userActor(auth),
        action: "audit.export",
        after: { ...rest, ...named, timezone },
      });
      await sealChain(db, auth.subscription.id, deps.config.auditKey, true, deps.anchors);
      const clock = zoneClock(timezone);
      const header =
        [`Time (${clock.zone})`, "Person", "Action", "Record", "Device", "Changes"].join(",") + "\r\n";
      async function* lines() {
        for await (const page of auditStream(db, auth.subscription.id, filter)) {
          let text = "";
          for (const e of page)
            text +=
              [
                clock.iso(e.at),
                csvText(e.actor),
                csvText(actionName(e.action)),
                csvText(recordCell(e.action, e.entityType, e.entityId, recordName(e.old, e.new))),
                csvText(e.deviceName ?? (e.deviceId === null ? "" : `#${e.deviceId}`)),
                csvText(changesText(e.old, e.new, e.action)),
              ].join(",") + "\r\n";
          yield text;
        }
      }
      const now = deps.now();
      return c.body(csvFileStream(header, lines()), 200, {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": csvFileName({ name: "Audit trail", start: now, end: now }),
        "cache-control": "no-store",
      });
    })
    .post(verifyAuditTrail.path, guard(verifyAuditTrail, deps), async (c) => {
      // Against the heads this instance anchored outside the database (other instances' files
      // are compared by `npm run audit -- verify --anchors`), once what is committed is sealed.
      const subscriptionId = authOf(c).subscription.id;
      await sealChain(db, subscriptionId, deps.config.auditKey, true, deps.anchors);
      const result = await verifyAudit(db, {
        subscriptionId,
        key: deps.config.auditKey,
        anchors: await deps.anchors.read(),
        sink: deps.anchors,
      });
      const first = result.faults[0];
      return reply(c, verifyAuditTrail, {
        rows: result.rows,
        intact: result.faults.length === 0,
        firstFault: first ? { seq: first.seq, why: first.why } : null,
        faults: result.faults.length,
        anchoredAt: result.anchoredAt,
      });
    });
}
