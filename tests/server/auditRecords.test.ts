import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { verifyAudit } from "../../server/flows/auditVerify.ts";
import { ACTION_NAMES } from "../../src/domain/auditText.ts";
import type { Browser } from "./client.ts";
import { deviceId, signedIn } from "./deviceTestKit.ts";
import { useTestApp } from "./helpers.ts";
import { subscriptionId } from "./ownership.ts";

// Each recorded action writes its row with the right old and new values (issue 37): one call
// each, then the newest row of the caller's chain.

type Row = { action: string; actor_label: string; old: unknown; new: unknown; device_id: number | null };

describe("what the audit trail records", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const newest = async (): Promise<Row> => {
    const [row] = await rows<Row>(
      db(),
      sql`select action, actor_label, old, new, device_id from audit_log where action not like 'session.signin%' order by at desc, id desc limit 1`,
    );
    return row!;
  };
  const ok = async (res: Promise<Response>) => {
    const r = await res;
    expect(r.status, await r.clone().text()).toBeLessThan(300);
  };
  const admin = () => signedIn(ctx, "admin@example.com");

  const cases: [string, (b: Browser) => Promise<void>, Partial<Row>][] = [
    [
      "a device's new location",
      async (b) => {
        const id = await deviceId(db(), "Lab Base Station");
        await ok(b.form("/devices/data/change-device-location", { id: String(id), location: "Dock 4" }));
      },
      { action: "device.location", new: { location: "Dock 4" } },
    ],
    [
      "a new tag and its devices",
      async (b) => {
        const body = { subscriptionId: await subscriptionId(db(), "Acme"), tag: { name: "Audited" } };
        await ok(b.json("/api/v1/tags", body));
      },
      { action: "tag.create", old: null, new: { name: "Audited", deviceIds: [], alertIds: [] } },
    ],
    [
      "the person's settings",
      async (b) => {
        await ok(b.json("/api/v1/session/settings", { timezone: "Europe/Berlin" }, "PATCH"));
      },
      { action: "user.settings", new: { timezone: "Europe/Berlin" } },
    ],
    [
      "an alert rule",
      async (b) => {
        const [ch] = await rows<{ key: string }>(
          db(),
          sql`select channel_key as key from channels where kind = 'temperature' limit 1`,
        );
        await ok(
          b.json("/api/v1/alerts/rules", {
            name: "Too warm",
            channelKey: ch!.key,
            condition: { type: "above", high: 8, scale: "C" },
            notify: {
              emails: ["ops@example.net"],
              webhookUrls: ["https://hooks.example.net/secret-path?key=abc"],
            },
          }),
        );
      },
      { action: "alert.rule.create" },
    ],
    [
      "forgetting remembered browsers",
      async (b) => {
        await ok(b.delete("/api/v1/account/mfa/remembered-devices"));
      },
      { action: "user.remembered.forget" },
    ],
    [
      "signing out other browsers",
      async (b) => {
        await ok(b.delete("/api/v1/account/sessions/others"));
      },
      { action: "session.end-others" },
    ],
  ];

  it.each(cases)("records %s", async (_, act, expected) => {
    const b = await admin();
    await act(b);
    const row = await newest();
    expect(row).toMatchObject({ actor_label: "admin@example.com", ...expected });
    expect(ACTION_NAMES[row.action], `a name for ${row.action}`).toBeDefined();
    expect((await verifyAudit(db())).faults).toEqual([]);
  });

  it("keeps a webhook address to its origin, never its path or key", async () => {
    await cases[3]![1](await admin());
    const text = JSON.stringify((await newest()).new);
    expect(text).toContain("https://hooks.example.net");
    expect(text).not.toContain("secret-path");
    expect(text).not.toContain("key=abc");
  });

  it("names what a rule watches and whom it tells, never by key or id", async () => {
    const b = await admin();
    const [ch] = await rows<{ key: string }>(
      db(),
      sql`select c.channel_key as key from channels c join channel_groups g on g.id = c.channel_group_id
          where g.label = 'Cold Room' and c.kind = 'temperature' limit 1`,
    );
    const [me] = await rows<{ id: number }>(
      db(),
      sql`select id from users where email = 'admin@example.com'`,
    );
    await ok(
      b.json("/api/v1/alerts/rules", {
        name: "Cold Room warm",
        channelKey: ch!.key,
        condition: { type: "above", high: 8, scale: "C" },
        notify: { userIds: [me!.id], emails: [], webhookUrls: [] },
      }),
    );
    const row = await newest();
    expect(row.action).toBe("alert.rule.create");
    expect(row.new).toMatchObject({
      watches: "Lab Base Station - Cold Room - Temperature",
      notify: { people: ["admin@example.com"] },
    });
    expect(JSON.stringify(row.new)).not.toContain(ch!.key);
    expect(row.new).not.toHaveProperty("channelKey");
  });

  it("puts a rule on one sensor, its change and its deletion in that device's history", async () => {
    const b = await admin();
    await cases[3]![1](b);
    const [made] = await rows<{ id: number; device_id: number }>(
      db(),
      sql`select r.id, s.device_id from alert_rules r join channels c on c.id = r.channel_id
          join channel_groups g on g.id = c.channel_group_id join sensors s on s.id = g.sensor_id
          order by r.id desc limit 1`,
    );
    expect(await newest()).toMatchObject({ action: "alert.rule.create", device_id: made!.device_id });
    await ok(b.json(`/api/v1/alerts/rules/${made!.id}`, { name: "Too warm now" }, "PATCH"));
    expect(await newest()).toMatchObject({ action: "alert.rule.change", device_id: made!.device_id });
    await ok(b.delete(`/api/v1/alerts/rules/${made!.id}`));
    expect(await newest()).toMatchObject({ action: "alert.rule.delete", device_id: made!.device_id });
  });

  it("records a tag's rename and deletion with the name before and after", async () => {
    const b = await admin();
    const made = await b.json("/api/v1/tags", {
      subscriptionId: await subscriptionId(db(), "Acme"),
      tag: { name: "Old name" },
    });
    const { id } = (await made.json()).data;
    await ok(b.json(`/api/v1/tags/${id}`, { fields: { name: "New name" }, patchFields: ["name"] }, "PATCH"));
    expect(await newest()).toMatchObject({
      action: "tag.rename",
      old: { name: "Old name" },
      new: { name: "New name" },
    });
    await ok(b.delete(`/api/v1/tags/${id}`));
    expect(await newest()).toMatchObject({ action: "tag.delete", old: { name: "New name" }, new: null });
  });

  it("records nothing for a change refused before it is made", async () => {
    const before = await rows<{ n: number }>(db(), sql`select count(*)::int as n from audit_log`);
    const viewer = await signedIn(ctx, "viewer@example.com");
    const id = await deviceId(db(), "Lab Base Station");
    expect(
      (await viewer.json(`/api/v1/device-data/update-device/${id}`, { name: "No" }, "PATCH")).status,
    ).toBe(403);
    const after = await rows<{ n: number }>(db(), sql`select count(*)::int as n from audit_log`);
    // Only the viewer's own sign-in was added.
    expect(after[0]!.n - before[0]!.n).toBe(1);
  });
});
