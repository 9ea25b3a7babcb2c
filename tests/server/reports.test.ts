import { ACTIVATION_ENERGY_RULE } from "../../src/domain/compliance.ts";
import { describe, expect, it } from "vitest";
import { viewCounter } from "../../server/data/reportLinks.ts";
import { DEMO } from "../../server/seed/demo.ts";
import type { ChannelOption, ReportDetail, ReportInput, ReportSummary } from "../../src/api/reportBuilder.ts";
import { planLimitMessage } from "../../src/domain/plan.ts";
import { browser, signIn, type Browser } from "./client.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";

const NOW = TEST_NOW.getTime() / 1000;
const DAY = 86_400;
const NOT_FOUND = { success: false, data: [{ field: null, message: "Not found." }] };
const FORBIDDEN = "You do not have permission to do that.";
const publicMeta = (hash: string) => `/api/v1/device-data/public/report/${hash}`;

describe("report builder", () => {
  const ctx = useTestApp({ seeded: true });
  const as = async (who: string) => {
    const b = browser(ctx.app);
    await signIn(b, who.includes("@") ? who : `${who}@example.com`);
    return b;
  };
  const data = async <T>(res: Response, status = 200): Promise<T> => {
    const body = (await res.json()) as { data: T };
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(status);
    return body.data;
  };
  const options = async (b: Browser) => data<ChannelOption[]>(await b.get("/api/v1/report-channels"));
  const labInput = async (b: Browser): Promise<ReportInput> => {
    const [a, c] = (await options(b)).filter((o) => o.kind === "temperature");
    return {
      name: "Freezer audit",
      mktActivationEnergy: 83.144,
      timeInterval: 7 * DAY,
      startDate: null,
      endDate: null,
      channels: [
        { channelId: a!.channelId, color: "#112233", axis: 0 },
        { channelId: c!.channelId, color: "#445566", axis: 1 },
      ],
      thresholds: [
        { name: "Too warm", channelId: a!.channelId, minValue: 8, maxValue: null, color: "#ff0000" },
      ],
    };
  };
  const create = async (b: Browser, input?: ReportInput) =>
    data<ReportDetail>(await b.json("/api/v1/reports", input ?? (await labInput(b))));
  const share = async (b: Browser, id: number, body: object = {}) =>
    data<ReportSummary>(await b.json(`/api/v1/reports/${id}/public-link`, body));
  const opens = async (hash: string) => (await ctx.app.request(`http://localhost${publicMeta(hash)}`)).status;

  it("lists the subscription's reports to every role with channels, window and link state", async () => {
    const list = await data<ReportSummary[]>(await (await as("viewer")).get("/api/v1/reports"));
    expect(list.map((r) => [r.name, r.channelCount, r.timeInterval, r.link?.state, r.views30Days])).toEqual([
      ["Lab Climate — Audit Week", 3, 0, "live", 0],
      ["Lab Climate — Last 24 Hours", 3, 86_400, "live", 0],
    ]);
    expect(list[1]!.link).toEqual({
      publicHash: DEMO.reportHash,
      expiresAt: null,
      pausedAt: null,
      state: "live",
    });
  });

  it("offers the channels of the subscription's own devices only", async () => {
    const acme = await options(await as("admin"));
    const northwind = await options(await as("owner@northwind.example.com"));
    expect(acme.length).toBeGreaterThan(3);
    expect(acme.some((o) => o.sensorName === "Cold Room" && o.channelName === "Temperature")).toBe(true);
    const theirs = new Set(northwind.map((o) => o.channelId));
    expect(acme.filter((o) => theirs.has(o.channelId))).toEqual([]);
  });

  it("creates a report with two channels and a threshold, read back as saved", async () => {
    const admin = await as("admin");
    const input = await labInput(admin);
    const made = await create(admin, input);
    expect(made).toMatchObject({ name: "Freezer audit", channelCount: 2, timeInterval: 7 * DAY, link: null });
    expect(made.channels).toEqual(input.channels);
    expect(made.thresholds).toMatchObject(input.thresholds);
    expect(await data<ReportDetail>(await admin.get(`/api/v1/reports/${made.id}`))).toEqual(made);
  });

  it("keeps the report's activation energy for its mean kinetic temperature, 83.144 kJ/mol unless sent", async () => {
    const admin = await as("admin");
    const { mktActivationEnergy: _, ...plain } = await labInput(admin);
    expect((await create(admin, plain as ReportInput)).mktActivationEnergy).toBe(83.144);
    const made = await create(admin, { ...(await labInput(admin)), mktActivationEnergy: 100.5 });
    expect(made.mktActivationEnergy).toBe(100.5);
    const read = await data<ReportDetail>(await admin.get(`/api/v1/reports/${made.id}`));
    expect(read.mktActivationEnergy).toBe(100.5);
  });

  it("lets a Manager edit and refuses Viewer, Provisioner and Billing with 403", async () => {
    const manager = await as("manager");
    const made = await create(manager);
    for (const role of ["viewer", "provisioner", "billing"]) {
      const b = await as(role);
      const attempts = [
        await b.json("/api/v1/reports", await labInput(manager)),
        await b.json(`/api/v1/reports/${made.id}`, await labInput(manager), "PATCH"),
        await b.delete(`/api/v1/reports/${made.id}`),
        await b.json(`/api/v1/reports/${made.id}/public-link`, {}),
        await b.json(`/api/v1/reports/${made.id}/public-link`, { paused: true }, "PATCH"),
        await b.delete(`/api/v1/reports/${made.id}/public-link`),
      ];
      for (const res of attempts) {
        expect(res.status).toBe(403);
        expect(await res.text()).toContain(FORBIDDEN);
      }
      expect((await b.get(`/api/v1/reports/${made.id}`)).status).toBe(200);
    }
  });

  it("answers another subscription's report exactly like a missing one", async () => {
    const made = await create(await as("admin"));
    const other = await as("owner@northwind.example.com");
    for (const path of [`/api/v1/reports/${made.id}`, `/api/v1/reports/2147483647`]) {
      expect(await data(await other.get(path), 404)).toEqual(NOT_FOUND.data);
      expect(await data(await other.delete(`${path}/public-link`), 404)).toEqual(NOT_FOUND.data);
      expect(await data(await other.json(`${path}/public-link`, {}), 404)).toEqual(NOT_FOUND.data);
    }
    expect((await data<ReportSummary[]>(await other.get("/api/v1/reports"))).map((r) => r.id)).not.toContain(
      made.id,
    );
  });

  it("refuses another subscription's channel exactly like a missing one, and saves nothing", async () => {
    const admin = await as("admin");
    const [theirs] = await options(await as("owner@northwind.example.com"));
    const input = await labInput(admin);
    for (const channelId of [theirs!.channelId, 2_147_483_647]) {
      const res = await admin.json("/api/v1/reports", {
        ...input,
        channels: [...input.channels, { channelId, color: "#000000", axis: 0 }],
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(NOT_FOUND);
    }
    expect(await data<ReportSummary[]>(await admin.get("/api/v1/reports"))).toHaveLength(2);
  });

  it.each<[string, (i: ReportInput) => unknown, string, string]>([
    ["an empty name", (i) => ({ ...i, name: "  " }), "name", "Enter a report name."],
    ["no channels", (i) => ({ ...i, channels: [] }), "channels", "Choose at least one channel."],
    [
      "a start after the end",
      (i) => ({ ...i, timeInterval: 0, startDate: NOW, endDate: NOW - DAY }),
      "timeInterval",
      "Choose a rolling window or a start before the end.",
    ],
    [
      "a bad colour",
      (i) => ({ ...i, channels: [{ ...i.channels[0], color: "red" }] }),
      "channels.0.color",
      "Colours are #rrggbb.",
    ],
    [
      "a minimum above the maximum",
      (i) => ({ ...i, thresholds: [{ ...i.thresholds[0], minValue: 9, maxValue: 2 }] }),
      "thresholds.0.maxValue",
      "The minimum must not be above the maximum.",
    ],
    [
      "a range with no side",
      (i) => ({ ...i, thresholds: [{ ...i.thresholds[0], minValue: null, maxValue: null }] }),
      "thresholds.0.minValue",
      "Give a minimum, a maximum or both.",
    ],
    [
      "a range on a channel the report lacks",
      (i) => ({ ...i, thresholds: [{ ...i.thresholds[0], channelId: 2_147_483_647 }] }),
      "thresholds",
      "A threshold range names a channel the report does not show.",
    ],
    [
      "a channel twice",
      (i) => ({ ...i, channels: [i.channels[0], i.channels[0]] }),
      "channels",
      "Each channel once.",
    ],
    [
      "a string window",
      (i) => ({ ...i, timeInterval: "86400" }),
      "timeInterval",
      "Choose a rolling window or a start before the end.",
    ],
    [
      "an activation energy below 10 kJ/mol",
      (i) => ({ ...i, mktActivationEnergy: 5 }),
      "mktActivationEnergy",
      ACTIVATION_ENERGY_RULE,
    ],
    [
      "an activation energy as text",
      (i) => ({ ...i, mktActivationEnergy: "83" }),
      "mktActivationEnergy",
      ACTIVATION_ENERGY_RULE,
    ],
    ["an unknown field", (i) => ({ ...i, owner: 1 }), "", "Unrecognized key"],
  ])("refuses %s with a clear 400", async (_, spoil, field, message) => {
    const admin = await as("admin");
    const res = await admin.json("/api/v1/reports", spoil(await labInput(admin)));
    const body = (await res.json()) as { data: { field: string | null; message: string }[] };
    expect(res.status).toBe(400);
    expect(body.data.some((e) => (field === "" || e.field === field) && e.message.includes(message))).toBe(
      true,
    );
  });

  it("refuses a malformed report id and link input with 400, never 500", async () => {
    const admin = await as("admin");
    expect((await admin.get("/api/v1/reports/abc")).status).toBe(400);
    expect((await admin.get("/api/v1/reports/99999999999")).status).toBe(400);
    const [report] = await data<ReportSummary[]>(await admin.get("/api/v1/reports"));
    const bad = [{ expiresAt: "tomorrow" }, { expiresAt: 1e12 }, { paused: "yes" }];
    for (const body of bad) {
      const method = "paused" in body ? "PATCH" : "POST";
      expect((await admin.json(`/api/v1/reports/${report!.id}/public-link`, body, method)).status).toBe(400);
    }
  });

  it("replaces channels and ranges on edit, keeping ranges another report still shows", async () => {
    const admin = await as("admin");
    const [fixed, rolling] = await data<ReportSummary[]>(await admin.get("/api/v1/reports"));
    const before = await data<ReportDetail>(await admin.get(`/api/v1/reports/${fixed!.id}`));
    const input = await labInput(admin);
    const edited = await data<ReportDetail>(
      await admin.json(
        `/api/v1/reports/${rolling!.id}`,
        { ...input, timeInterval: 0, startDate: NOW - DAY, endDate: NOW },
        "PATCH",
      ),
    );
    expect(edited).toMatchObject({
      name: "Freezer audit",
      timeInterval: 0,
      startDate: NOW - DAY,
      endDate: NOW,
    });
    expect(edited.channels).toEqual(input.channels);
    expect(edited.thresholds.map((t) => t.name)).toEqual(["Too warm"]);
    expect(edited.link?.publicHash).toBe(DEMO.reportHash);
    // The seed's two reports share their ranges: the audit week keeps them.
    expect(await data<ReportDetail>(await admin.get(`/api/v1/reports/${fixed!.id}`))).toEqual(before);
  });

  it("keeps one whole set of channels when two edits of a report race", async () => {
    const admin = await as("admin");
    const made = await create(admin);
    const input = await labInput(admin);
    const one = { ...input, channels: [input.channels[0]!] };
    const two = { ...input, thresholds: [], channels: [input.channels[1]!] };
    const answers = await Promise.all([
      admin.json(`/api/v1/reports/${made.id}`, one, "PATCH"),
      admin.json(`/api/v1/reports/${made.id}`, two, "PATCH"),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const after = await data<ReportDetail>(await admin.get(`/api/v1/reports/${made.id}`));
    expect(after.channels).toHaveLength(1);
  });

  it("shares, regenerates, pauses, resumes, expires and stops sharing a link", async () => {
    const admin = await as("admin");
    const made = await create(admin);
    const first = await share(admin, made.id);
    const hash = first.link!.publicHash;
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.link).toMatchObject({ state: "live", expiresAt: null, pausedAt: null });
    expect(await opens(hash)).toBe(200);

    const second = await share(admin, made.id);
    expect(second.link!.publicHash).not.toBe(hash);
    expect(await opens(hash)).toBe(404);
    const current = second.link!.publicHash;

    const paused = await data<ReportSummary>(
      await admin.json(`/api/v1/reports/${made.id}/public-link`, { paused: true }, "PATCH"),
    );
    expect(paused.link).toMatchObject({ state: "paused", pausedAt: NOW });
    expect(await opens(current)).toBe(404);
    await admin.json(`/api/v1/reports/${made.id}/public-link`, { paused: false }, "PATCH");
    expect(await opens(current)).toBe(200);

    const expired = await data<ReportSummary>(
      await admin.json(`/api/v1/reports/${made.id}/public-link`, { expiresAt: NOW - 60 }, "PATCH"),
    );
    expect(expired.link).toMatchObject({ state: "expired", expiresAt: NOW - 60 });
    expect(await opens(current)).toBe(404);
    await admin.json(`/api/v1/reports/${made.id}/public-link`, { expiresAt: NOW + DAY }, "PATCH");
    expect(await opens(current)).toBe(200);

    const stopped = await data<ReportSummary>(await admin.delete(`/api/v1/reports/${made.id}/public-link`));
    expect(stopped.link).toBeNull();
    expect(await opens(current)).toBe(404);
    const res = await admin.json(`/api/v1/reports/${made.id}/public-link`, { paused: true }, "PATCH");
    expect(res.status).toBe(404);
  });

  it("keeps the reports within the plan's limit, one of two made at the same moment at the last place", async () => {
    const owner = await as("owner@northwind.example.com");
    const [option] = await options(owner);
    const input = (name: string): ReportInput => ({
      name,
      mktActivationEnergy: 83.144,
      timeInterval: DAY,
      startDate: null,
      endDate: null,
      channels: [{ channelId: option!.channelId, color: "#112233", axis: 0 }],
      thresholds: [],
    });
    // Northwind's plan includes 5 reports.
    for (let i = 1; i <= 4; i++) await create(owner, input(`Report ${i}`));
    const last = await Promise.all([
      owner.json("/api/v1/reports", input("A")),
      owner.json("/api/v1/reports", input("B")),
    ]);
    expect(last.map((r) => r.status).sort()).toEqual([200, 403]);
    const refused = last.find((r) => r.status === 403)!;
    expect((await refused.json()).data).toEqual([{ field: null, message: planLimitMessage("reports", 5) }]);
    const list = await data<ReportSummary[]>(await owner.get("/api/v1/reports"));
    expect(list).toHaveLength(5);
    // Deleting one makes room for another.
    expect((await owner.delete(`/api/v1/reports/${list[0]!.id}`)).status).toBe(200);
    await create(owner, input("After a delete"));
  });

  it("makes a deleted report's link fail at once", async () => {
    const admin = await as("admin");
    const [, rolling] = await data<ReportSummary[]>(await admin.get("/api/v1/reports"));
    expect(await opens(DEMO.reportHash)).toBe(200);
    expect(await data(await admin.delete(`/api/v1/reports/${rolling!.id}`))).toEqual({ id: rolling!.id });
    expect(await opens(DEMO.reportHash)).toBe(404);
    expect((await admin.get(`/api/v1/reports/${rolling!.id}`)).status).toBe(404);
  });

  it("counts views per day and lists those of the last 30 days", async () => {
    const admin = await as("admin");
    const [, rolling] = await data<ReportSummary[]>(await admin.get("/api/v1/reports"));
    const db = ctx.database.db;
    const daysAgo = (n: number) => new Date(TEST_NOW.getTime() - n * DAY * 1000);
    const views = viewCounter(db);
    for (const n of [0, 0, 0, 1, 29, 30, 45]) views.count(rolling!.id, daysAgo(n));
    await views.flush();
    const [, after] = await data<ReportSummary[]>(await admin.get("/api/v1/reports"));
    expect(after!.views30Days).toBe(5);
  });

  it("keeps views through a failed write, warns once, and writes them on its own retry", async () => {
    const admin = await as("admin");
    const [, rolling] = await data<ReportSummary[]>(await admin.get("/api/v1/reports"));
    const db = ctx.database.db;
    let failing = 2;
    const away = new Proxy(db, {
      get: (target, key) =>
        key === "execute" && failing > 0
          ? () => (failing--, Promise.reject(new Error("database away")))
          : Reflect.get(target, key),
    });
    const warnings: string[] = [];
    const views = viewCounter(away, 10, (line) => warnings.push(line));
    views.count(rolling!.id, TEST_NOW);
    views.count(rolling!.id, TEST_NOW);
    await expect.poll(() => failing, { timeout: 2000 }).toBe(0);
    expect(views.pending).toBe(2);
    await expect.poll(() => views.pending, { timeout: 2000 }).toBe(0);
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({
      what: "report views not written, kept to retry",
      views: 2,
    });
    const [, after] = await data<ReportSummary[]>(await admin.get("/api/v1/reports"));
    expect(after!.views30Days).toBe(2);
  });

  it("writes the other reports' views when a counted report is deleted before they are written", async () => {
    const admin = await as("admin");
    const [first, rolling] = await data<ReportSummary[]>(await admin.get("/api/v1/reports"));
    const views = viewCounter(ctx.database.db);
    views.count(first!.id, TEST_NOW);
    views.count(rolling!.id, TEST_NOW);
    expect((await admin.delete(`/api/v1/reports/${first!.id}`)).status).toBe(200);
    await views.flush();
    const [after] = await data<ReportSummary[]>(await admin.get("/api/v1/reports"));
    expect(after).toMatchObject({ id: rolling!.id, views30Days: 1 });
  });
});
