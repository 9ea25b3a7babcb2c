import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { csvHeader, csvStream, csvText, type CsvPlan } from "../../server/data/csvExport.ts";
import { csvFileName } from "../../server/http/csvFileName.ts";
import { rows as rowsOf } from "../../server/db/client.ts";
import {
  COLD_ROOM,
  NO_SUCH_ID,
  NOT_FOUND,
  RA_MAC,
  addSamples,
  channelId,
  deviceId,
  setFeature,
  signedIn,
} from "./deviceTestKit.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";
import type { Db } from "./ownership.ts";

const nowS = TEST_NOW.getTime() / 1000;
const iso = (s: number) => new Date(s * 1000).toISOString();
const BASE = `${RA_MAC}_BASE01_1300_0`;

/** The download path of a device for [start, end] (epoch seconds). */
const download = (id: number | string, start?: number, end?: number) => {
  const query = new URLSearchParams();
  if (start !== undefined) query.set("startTime", iso(start));
  if (end !== undefined) query.set("endTime", iso(end));
  return `/devices/data/download-device-data-by-date-range/${id}?${query}`;
};

/** Lines of a CSV answer, its byte-order mark checked and removed. */
async function linesOf(res: Response): Promise<string[]> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return new TextDecoder().decode(bytes).split("\r\n").slice(0, -1);
}

/** Samples in the Cold Room's temperature and humidity and the base station's temperature. */
async function seedReadings(db: Db) {
  const t0 = nowS - 3600;
  await addSamples(db, await channelId(db, `${COLD_ROOM}_1`), [
    [t0, 4.2],
    [t0 + 60, -1.5],
  ]);
  await addSamples(db, await channelId(db, `${COLD_ROOM}_2`), [[t0, 78]]);
  await addSamples(db, await channelId(db, `${BASE}_1`), [[t0 + 120, 23.456]]);
  return t0;
}

describe("the device data download", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;

  it("has one row per time and a column per channel, named so a person understands them", async () => {
    const t0 = await seedReadings(db());
    const viewer = await signedIn(ctx, "viewer@example.com");
    const id = await deviceId(db(), "Lab Base Station");
    const res = await viewer.get(download(id, t0 - 60, t0 + 600));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const [header, ...rows] = await linesOf(res);
    const names = header!.split(",");
    expect(names.slice(0, 4)).toEqual([
      "Time (UTC)",
      "Base Station - Temperature (°C)",
      "Base Station - Humidity (%)",
      "Cold Room - Temperature (°C)",
    ]);
    expect(names).toContain("Cold Room - Dew Point (°C)");
    const col = (name: string) => names.indexOf(name);
    expect(rows).toHaveLength(3);
    const cells = rows.map((r) => r.split(","));
    expect(cells.map((c) => c[0])).toEqual(
      [iso(t0), iso(t0 + 60), iso(t0 + 120)].map((t) => t.slice(0, 19).replace("T", " ")),
    );
    expect(cells[0]![col("Cold Room - Temperature (°C)")]).toBe("4.2");
    expect(cells[0]![col("Cold Room - Humidity (%)")]).toBe("78");
    expect(cells[1]![col("Cold Room - Temperature (°C)")]).toBe("-1.5");
    expect(cells[1]![col("Cold Room - Humidity (%)")]).toBe("");
    expect(cells[2]![col("Base Station - Temperature (°C)")]).toBe("23.46");
    expect(cells.every((c) => c.length === names.length)).toBe(true);
  });

  it("shows temperatures in the person's scale with the adjustment applied", async () => {
    const t0 = await seedReadings(db());
    await db().execute(sql`update users set temperature_scale = 'F' where email = 'admin@example.com'`);
    await db().execute(sql`update channels set adjust = 1 where channel_key = ${`${COLD_ROOM}_1`}`);
    const admin = await signedIn(ctx, "admin@example.com");
    const [header, first] = await linesOf(
      await admin.get(download(await deviceId(db(), "Lab Base Station"), t0 - 60, t0 + 600)),
    );
    const names = header!.split(",");
    expect(names).toContain("Cold Room - Temperature (°F)");
    expect(first!.split(",")[names.indexOf("Cold Room - Temperature (°F)")]).toBe("41.4");
  });

  it("escapes formula prefixes in text cells, never in numbers", async () => {
    const t0 = await seedReadings(db());
    await db().execute(
      sql`update channel_groups set label = '=HYPERLINK("x"),1' where channel_key = ${COLD_ROOM}`,
    );
    const viewer = await signedIn(ctx, "viewer@example.com");
    const [header, , second] = await linesOf(
      await viewer.get(download(await deviceId(db(), "Lab Base Station"), t0 - 60, t0 + 600)),
    );
    expect(header).toContain(`"'=HYPERLINK(""x""),1 - Temperature (°C)"`);
    expect(second).toContain(",-1.5,");
    for (const prefix of ["=", "+", "-", "@", "\t", "\r"]) expect(csvText(`${prefix}1`)).toMatch(/^"?'/);
    expect(csvText("Cold Room")).toBe("Cold Room");
    // Quoted where a spreadsheet splitting on ';' or tab would start a cell (maybe a formula).
    expect(csvText("Fridge;=1+1")).toBe('"Fridge;=1+1"');
    expect(csvText("a\t=1")).toBe('"a\t=1"');
  });

  it("refuses a download another site's link started, and records nothing for it", async () => {
    const viewer = await signedIn(ctx, "viewer@example.com");
    const id = await deviceId(db(), "Lab Base Station");
    const recorded = async () =>
      (
        await rowsOf<{ n: number }>(
          db(),
          sql`select count(*)::int as n from audit_log where action = 'device.download'`,
        )
      )[0]!;
    const before = (await recorded()).n;
    const cross = await viewer.get(download(id), {
      "sec-fetch-site": "cross-site",
      "sec-fetch-mode": "navigate",
    });
    expect(cross.status).toBe(403);
    expect(await cross.json()).toEqual({
      success: false,
      data: [{ field: null, message: "Cross-site request refused." }],
    });
    expect((await recorded()).n).toBe(before);
    const own = await viewer.get(download(id), { "sec-fetch-site": "same-origin" });
    expect(own.status).toBe(200);
    await own.arrayBuffer();
  });

  it("names the file after the device and the range, 'device-data.csv' when the name leaves nothing", async () => {
    const viewer = await signedIn(ctx, "viewer@example.com");
    const res = await viewer.get(download(await deviceId(db(), "Lab Base Station"), nowS - 86400, nowS));
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="Lab Base Station 2026-11-21 to 2026-11-22.csv"; filename*=UTF-8''Lab%20Base%20Station%202026-11-21%20to%202026-11-22.csv`,
    );
    await res.body?.cancel();
    const range = { start: TEST_NOW, end: TEST_NOW };
    expect(csvFileName({ name: "\u0000\u0007", ...range })).toBe('attachment; filename="device-data.csv"');
    expect(csvFileName({ name: 'Kühlraum "A";\r\n', ...range })).toBe(
      `attachment; filename="Khlraum A 2026-11-22 to 2026-11-22.csv"; filename*=UTF-8''K%C3%BChlraum%20A%20%3B%202026-11-22%20to%202026-11-22.csv`,
    );
  });

  it("gives only the header line for a range without readings", async () => {
    const viewer = await signedIn(ctx, "viewer@example.com");
    const id = await deviceId(db(), "Lab Base Station");
    const lines = await linesOf(await viewer.get(download(id, nowS - 7200, nowS - 3600)));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Time \(UTC\),/);
  });

  it("covers the last 24 hours when no range is given", async () => {
    await addSamples(db(), await channelId(db(), `${COLD_ROOM}_1`), [
      [nowS - 90_000, 1],
      [nowS - 600, 2],
    ]);
    const viewer = await signedIn(ctx, "viewer@example.com");
    const rows = (await linesOf(await viewer.get(download(await deviceId(db(), "Lab Base Station"))))).slice(
      1,
    );
    expect(
      rows.some((r) =>
        r.startsWith(
          iso(nowS - 600)
            .slice(0, 19)
            .replace("T", " "),
        ),
      ),
    ).toBe(true);
    expect(
      rows.some((r) =>
        r.startsWith(
          iso(nowS - 90_000)
            .slice(0, 19)
            .replace("T", " "),
        ),
      ),
    ).toBe(false);
  });

  it("refuses bad ranges with 400 on the field, and holds the start to the plan's limit (a range wholly older finds nothing)", async () => {
    const viewer = await signedIn(ctx, "viewer@example.com");
    const id = await deviceId(db(), "Lab Base Station");
    const backwards = await viewer.get(download(id, nowS, nowS - 60));
    expect(backwards.status).toBe(400);
    expect((await backwards.json()).data).toEqual([
      { field: "startTime", message: "The start time must be before the end time." },
    ]);
    for (const bad of [
      "yesterday",
      "2026-13-01T00:00:00Z",
      "2026-02-30T00:00:00Z",
      "2026-11-22",
      "1e9",
      "",
    ]) {
      const res = await viewer.get(
        `/devices/data/download-device-data-by-date-range/${id}?startTime=${encodeURIComponent(bad)}`,
      );
      expect.soft(res.status, bad).toBe(400);
      expect.soft((await res.json()).data[0].field, bad).toBe("startTime");
    }
    // Two calendar years back from 2026-11-22 are 730 days (no 29 February between).
    const twoYears = nowS - 2 * 365 * 86400;
    const old = await viewer.get(download(id, nowS - 5 * 365 * 86400, nowS - 4 * 365 * 86400));
    expect(old.status).toBe(200);
    expect((await linesOf(old)).slice(1).filter((line) => line !== "")).toEqual([]);
    await addSamples(db(), await channelId(db(), `${COLD_ROOM}_1`), [
      [twoYears - 60, 1],
      [twoYears + 60, 2],
    ]);
    const rows = (await linesOf(await viewer.get(download(id, twoYears - 3600, twoYears + 3600)))).slice(1);
    expect(rows).toHaveLength(1);
    expect(
      rows[0]!.startsWith(
        iso(twoYears + 60)
          .slice(0, 19)
          .replace("T", " "),
      ),
    ).toBe(true);
  });

  it("is refused without the plan's CSV export feature, and another subscription's device is a 404", async () => {
    const id = await deviceId(db(), "Lab Base Station");
    const other = await signedIn(ctx, "owner@northwind.example.com");
    expect(await (await other.get(download(id))).json()).toEqual(NOT_FOUND);
    expect(await (await other.get(download(NO_SUCH_ID))).json()).toEqual(NOT_FOUND);
    await setFeature(db(), "Acme", "csvExport", false);
    const admin = await signedIn(ctx, "admin@example.com");
    const res = await admin.get(download(id));
    expect(res.status).toBe(403);
    expect((await res.json()).data[0].message).toBe(
      "Downloading device data is not included in your subscription plan.",
    );
  });
});

describe("the CSV stream", () => {
  const ctx = useTestApp({ seeded: true });

  /** A plan over the Cold Room's four channels for the last two hours. */
  async function coldRoomPlan(db: Db): Promise<CsvPlan> {
    const columns = await Promise.all(
      [1, 2, 3, 4].map(async (type) => ({
        channelId: await channelId(db, `${COLD_ROOM}_${type}`),
        kind: type === 2 ? "humidity" : "temperature",
        adjust: 0,
        title: `Cold Room - ${type}`,
        units: type === 2 ? "%" : "C",
      })),
    );
    // Ends before the seeded latest readings (at TEST_NOW, and when the sensor last reported,
    // 4 minutes before), so only the test's samples count.
    return { columns, start: new Date((nowS - 7200) * 1000), end: new Date((nowS - 600) * 1000), scale: "C" };
  }

  const readAll = async (stream: ReadableStream<Uint8Array>) => {
    const parts: string[] = [];
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    for await (const part of stream) parts.push(decoder.decode(part));
    return parts;
  };

  it("reads minutes, a gap and then seconds in keyset chunks that join into the same file as one big chunk, every time once", async () => {
    const db = ctx.database.db;
    const plan = await coldRoomPlan(db);
    const minutes = Array.from({ length: 50 }, (_, i) => nowS - 7000 + i * 60);
    const seconds = Array.from({ length: 30 }, (_, i) => nowS - 1000 + i);
    for (const [i, column] of plan.columns.entries())
      await addSamples(
        db,
        column.channelId,
        minutes.filter((_, k) => (k + i) % 3 !== 0).map((t, k) => [t, k + i / 10]),
      );
    await addSamples(
      db,
      plan.columns[1]!.channelId,
      seconds.map((t, k) => [t, 50 + k]),
    );
    const whole = await readAll(csvStream(db, plan, 10_000));
    const chunked = await readAll(csvStream(db, plan, 4));
    expect(chunked.length).toBeGreaterThan(10);
    expect(chunked.join("")).toBe(whole.join(""));
    const lines = whole.join("").split("\r\n").slice(1, -1);
    expect(lines).toHaveLength(80);
    expect(new Set(lines.map((l) => l.slice(0, 19))).size).toBe(80);
    expect(whole[0]).toBe("\uFEFF" + csvHeader(plan));
  });

  it("stops reading while its reader waits, a few chunks ahead at most (backpressure)", async () => {
    const db = ctx.database.db;
    const plan = await coldRoomPlan(db);
    const limit = 5;
    await addSamples(
      db,
      plan.columns[0]!.channelId,
      Array.from({ length: 110 }, (_, i): [number, number] => [nowS - 7200 + i * 60, i]),
    );
    // Rows the stream has fetched from the database, and queries sent.
    let fetched = 0;
    let queries = 0;
    const counting = new Proxy(db, {
      get: (target, key, receiver) =>
        key === "execute"
          ? async (...args: Parameters<Db["execute"]>) => {
              queries++;
              const result = await target.execute(...args);
              fetched += (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
              return result;
            }
          : Reflect.get(target, key, receiver),
    });
    const reader = csvStream(counting, plan, limit).getReader();
    await reader.read();
    let consumed = 0;
    const pause = () => new Promise((r) => setTimeout(r, 60));
    for (let read = 1; read <= 4; read++) {
      const { value } = await reader.read();
      consumed += new TextDecoder().decode(value).split("\r\n").length - 1;
      await pause();
      const sent = queries;
      await pause();
      expect(queries, "no query while the reader waits").toBe(sent);
      expect(fetched - consumed).toBeLessThanOrEqual(3 * limit);
    }
    await reader.cancel();
    const after = queries;
    await pause();
    expect(queries).toBe(after);
  });
});
