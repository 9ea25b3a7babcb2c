import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { changesText } from "../../src/domain/auditText.ts";
import { deviceId, signedIn } from "./deviceTestKit.ts";
import { useTestApp } from "./helpers.ts";

/*
 * Attack 1130 on the audit trail: changes that commit with no row. The trail keeps values
 * scrubbed (src/domain/auditValues.ts `changes`, alerts' `maskedUrl`) and compares the scrubbed
 * before and after; when two different values scrub to the same text, the change "changed
 * nothing" and `audited()` writes no row, though the change itself commits.
 */

type Row = { action: string; old: unknown; new: unknown };

describe("attack 1130: changes the audit trail does not record", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const trail = () =>
    rows<Row>(
      db(),
      sql`select action, old, new from audit_log where action not like 'session.%' order by id`,
    );

  // A rule's webhook moved from one Slack workspace's hook to another's: both read
  // "https://hooks.slack.com/…" once masked (alerts.ts ruleValues -> maskedUrl). The row that is
  // written has the same before and after, so the viewer and the CSV show nothing changed:
  // whoever redirects a subscription's alarms to their own hook on the same host leaves no
  // visible trace.
  it("records a rule whose webhook moved to another hook on the same host", async () => {
    const b = await signedIn(ctx, "admin@example.com");
    const [ch] = await rows<{ key: string }>(
      db(),
      sql`select channel_key as key from channels where kind = 'temperature' order by id limit 1`,
    );
    const made = await b.json("/api/v1/alerts/rules", {
      name: "Cold chain",
      channelKey: ch!.key,
      condition: { type: "above", high: 8, scale: "C" },
      notify: { webhookUrls: ["https://hooks.slack.com/services/T0ACME/B0ACME/ours"] },
    });
    expect(made.status, await made.clone().text()).toBe(200);
    const id = (await made.json()).data.id as number;
    const before = (await trail()).length;
    const moved = await b.json(
      `/api/v1/alerts/rules/${id}`,
      { notify: { webhookUrls: ["https://hooks.slack.com/services/T0EVIL/B0EVIL/theirs"] } },
      "PATCH",
    );
    expect(moved.status, await moved.clone().text()).toBe(200);
    // The change committed...
    const [stored] = await rows<{ t: string }>(
      db(),
      sql`select row_to_json(a)::text as t from alert_rules a where a.id = ${id}`,
    );
    expect(stored!.t).toContain("T0EVIL");
    // ...so the trail must say so (by origin, and that the address changed).
    const after = await trail();
    expect(after.length, JSON.stringify(after.slice(before))).toBe(before + 1);
    const row = after.at(-1)!;
    expect(row.action).toBe("alert.rule.change");
    // A row is written (the notify object's keys come in another order), but its before and
    // after read the same: the viewer's and the CSV's words for it show no change at all.
    const words = changesText(
      row.old as Record<string, unknown>,
      row.new as Record<string, unknown>,
      row.action,
    );
    expect(words, JSON.stringify(row)).not.toBe("");
    expect(JSON.stringify(row.old)).not.toBe(JSON.stringify(row.new));
  });

  // CARD_LIKE (13 to 19 digits) replaces the WHOLE text with "[redacted]". A cold-chain
  // device's name, location or label with a GTIN-13/14, a lot or serial number of 13+ digits
  // reads "[redacted]" in the trail, and a rename from one such name to another writes no row.
  it("records a rename between two names that each hold a long number (a GTIN, a lot)", async () => {
    const b = await signedIn(ctx, "admin@example.com");
    const id = await deviceId(db(), "Lab Base Station");
    const first = await b.json(
      `/api/v1/device-data/update-device/${id}`,
      { name: "Freezer GTIN 04012345678901" },
      "PATCH",
    );
    expect(first.status).toBe(200);
    const before = (await trail()).length;
    const second = await b.json(
      `/api/v1/device-data/update-device/${id}`,
      { name: "Freezer GTIN 04012345678918" },
      "PATCH",
    );
    expect(second.status).toBe(200);
    const [dev] = await rows<{ name: string }>(db(), sql`select name from devices where id = ${id}`);
    expect(dev!.name).toBe("Freezer GTIN 04012345678918");
    const after = await trail();
    expect(after.length, JSON.stringify(after.slice(-2))).toBe(before + 1);
    expect(after.at(-1)).toMatchObject({ action: "device.rename" });
  });

  it("keeps the words around a long number, so the record stays named", async () => {
    const b = await signedIn(ctx, "admin@example.com");
    const id = await deviceId(db(), "Lab Base Station");
    await b.json(
      `/api/v1/device-data/update-device/${id}`,
      { name: "Vaccine fridge lot 20261130000123" },
      "PATCH",
    );
    const last = (await trail()).at(-1)!;
    expect(last.action).toBe("device.rename");
    // Today the whole name reads "[redacted]": who renamed what to what is lost.
    expect(JSON.stringify(last.new)).toContain("Vaccine fridge");
  });
});
