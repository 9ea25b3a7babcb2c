import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { verifyAudit } from "../../server/flows/auditVerify.ts";
import { browser } from "./client.ts";
import { COLD_ROOM, deviceId, signedIn } from "./deviceTestKit.ts";
import { useTestApp } from "./helpers.ts";

const UPDATE = "/api/v1/device-data/update-sensor/";
type Entry = {
  action: string;
  actor: string;
  old: unknown;
  new: unknown;
  deviceName: string | null;
  at: number;
};

describe("the audit trail of a subscription", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const trail = async (b: Awaited<ReturnType<typeof signedIn>>, query = "") => {
    const res = await b.get(`/api/v1/audit${query}`);
    expect(res.status).toBe(200);
    return (await res.json()).data as {
      entries: Entry[];
      actors: string[];
      actions: string[];
      next: number | null;
    };
  };

  it("records a rename, a sensor change and a public link with the old and new values", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    const id = await deviceId(db(), "Lab Base Station");
    expect(
      (await admin.json(`/api/v1/device-data/update-device/${id}`, { name: "Lab Base 2" }, "PATCH")).status,
    ).toBe(200);
    const sensor = {
      channelKey: COLD_ROOM,
      label: "Door side",
      channels: [{ channelKey: `${COLD_ROOM}_1`, adjust: 0.5 }],
    };
    expect((await admin.json(UPDATE, sensor, "PATCH")).status).toBe(200);
    const link = await admin.json(`/api/v1/device-data/public-link/${id}`, {});
    const token = (await link.json()).data.publicPageHash as string;
    await admin.delete(`/api/v1/device-data/public-link/${id}`);
    const { entries, actions } = await trail(admin);
    expect(entries.map((e) => e.action)).toEqual([
      "device.link.delete",
      // The demo device was shared already: a new link replaces its token.
      "device.link.replace",
      "sensor.update",
      "device.rename",
      "session.signin",
    ]);
    expect(entries[3]).toMatchObject({
      actor: "admin@example.com",
      old: { name: "Lab Base Station" },
      new: { name: "Lab Base 2" },
      deviceName: "Lab Base 2",
    });
    // Named as its card was (which of the device's sensors), the new label a change of its own.
    expect(entries[2]).toMatchObject({
      old: { name: "Cold Room", label: "Cold Room" },
      new: { name: "Cold Room", label: "Door side", "adjust temperature": 0.5 },
    });
    expect(actions).toContain("device.rename");
    // The link's token is a secret: it is in no row.
    const all = await rows<{ t: string }>(db(), sql`select row_to_json(l)::text as t from audit_log l`);
    expect(all.map((r) => r.t).join("\n")).not.toContain(token);
    expect((await verifyAudit(db())).faults).toEqual([]);
  });

  it("records failed sign-ins without the password, and sign-outs", async () => {
    const b = browser(ctx.app);
    await b.form("/gateway/submit", { emailAddress: "admin@example.com", password: "not-the-password-9" });
    await b.form("/gateway/submit", { emailAddress: "nobody@example.com", password: "not-the-password-9" });
    const admin = await signedIn(ctx, "admin@example.com");
    await admin.form("/gateway/logout", {});
    const again = await signedIn(ctx, "admin@example.com");
    const { entries } = await trail(again);
    expect(entries.map((e) => e.action)).toEqual([
      "session.signin",
      "session.signout",
      "session.signin",
      "session.signin.failed",
    ]);
    const all = await rows<{ t: string }>(db(), sql`select row_to_json(l)::text as t from audit_log l`);
    const text = all.map((r) => r.t).join("\n");
    expect(text).not.toContain("not-the-password-9");
    expect(text).not.toContain("demo-password-1");
    // An address nobody has is kept in the chain of no subscription.
    expect(text).toContain("nobody@example.com");
    expect((await trail(again)).actors).not.toContain("nobody@example.com");
  });

  it("filters by person, device, action and time", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    const manager = await signedIn(ctx, "manager@example.com");
    const id = await deviceId(db(), "Lab Base Station");
    await manager.json(`/api/v1/device-data/update-device/${id}`, { name: "By manager" }, "PATCH");
    await admin.json(`/api/v1/device-data/update-device/${id}`, { name: "By admin" }, "PATCH");
    const byManager = await trail(admin, "?actor=MANAGER@example.com&action=device");
    expect(byManager.entries.map((e) => [e.action, e.new])).toEqual([
      ["device.rename", { name: "By manager" }],
    ]);
    expect((await trail(admin, `?deviceId=${id}`)).entries).toHaveLength(2);
    expect(
      (await trail(admin, "?action=session")).entries.every((e) => e.action.startsWith("session.")),
    ).toBe(true);
    const at = (await trail(admin)).entries[0]!.at;
    expect((await trail(admin, `?from=${at + 1}`)).entries).toEqual([]);
    expect((await admin.get("/api/v1/audit?deviceId=0")).status).toBe(400);
    expect((await admin.get("/api/v1/audit?action=DROP%20TABLE")).status).toBe(400);
  });

  it("shows Administrators their own subscription's rows only, and refuses every other role", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    await admin.json(
      `/api/v1/device-data/update-device/${await deviceId(db(), "Lab Base Station")}`,
      { name: "Ours" },
      "PATCH",
    );
    const other = await signedIn(ctx, "owner@northwind.example.com");
    const theirs = await trail(other);
    expect(theirs.entries.map((e) => e.actor)).toEqual(["owner@northwind.example.com"]);
    for (const email of [
      "manager@example.com",
      "viewer@example.com",
      "provisioner@example.com",
      "billing@example.com",
    ]) {
      const b = await signedIn(ctx, email);
      expect((await b.get("/api/v1/audit")).status, email).toBe(403);
      expect((await b.get("/api/v1/audit/export.csv")).status, email).toBe(403);
      expect((await b.json("/api/v1/audit/verify", {})).status, email).toBe(403);
    }
  });

  it("exports the trail as CSV in the viewer's time zone and records the export", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    await admin.json(
      `/api/v1/device-data/update-device/${await deviceId(db(), "Lab Base Station")}`,
      { name: 'Lab, "B"' },
      "PATCH",
    );
    const res = await admin.get("/api/v1/audit/export.csv?timezone=America/New_York");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    const lines = (await res.text()).replace("\uFEFF", "").trim().split("\r\n");
    expect(lines[0]).toBe("Time (America/New_York),Person,Action,Record,Device,Changes");
    // The export itself comes first: it is recorded before the rows are read.
    expect(lines[1]).toMatch(
      /,admin@example.com,Exported the audit trail,,,Filters: none \(times in America\/New_York\)$/,
    );
    expect(lines[2]).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-0[45]:00,admin@example.com,Renamed a device,Device \d+,"Lab, ""B""",/,
    );
    expect(lines[2]).toContain('name: Lab Base Station → Lab, ""B""');
    expect((await trail(admin)).entries[0]!.action).toBe("audit.export");
    expect((await admin.get("/api/v1/audit/export.csv?timezone=Mars/Base")).status).toBe(400);
  });

  it("says the chain is intact, and names the first row that was edited", async () => {
    const admin = await signedIn(ctx, "admin@example.com");
    const id = await deviceId(db(), "Lab Base Station");
    for (const name of ["One", "Two", "Three"])
      await admin.json(`/api/v1/device-data/update-device/${id}`, { name }, "PATCH");
    const intact = (await (await admin.json("/api/v1/audit/verify", {})).json()).data;
    expect(intact).toEqual({ rows: 4, intact: true, firstFault: null, faults: 0, anchoredAt: null });
    await db().execute(
      sql`update audit_log set new = '{"name":"Forged"}' where action = 'device.rename' and new->>'name' = 'Two'`,
    );
    const broken = (await (await admin.json("/api/v1/audit/verify", {})).json()).data;
    expect(broken).toEqual({
      rows: 4,
      intact: false,
      firstFault: { seq: 3, why: "its content does not match its hash (edited)" },
      faults: 1,
      anchoredAt: null,
    });
  });
});
