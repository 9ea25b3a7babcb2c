import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../server/db/client.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { browser, signIn } from "./client.ts";
import { TEST_NOW } from "./helpers.ts";
import { COLD_TEMP, MAC, NOW_S, useIngestApp } from "./ingestKit.ts";

/*
 * The status badges of public report and device links (issue 36): OK, alarm and silent from the
 * alarms and pushes of what the link shows, at most 1 KB, cached for at most a minute, and gone
 * (404) once the link is deleted or paused.
 */

const REPORT_BADGE = `/public/report/${DEMO.reportHash}/badge.svg`;
const DEVICE_BADGE = `/public/device/${DEMO.raDeviceHash}/badge.svg`;

describe("link badges", () => {
  const { ctx, push } = useIngestApp();
  const db = () => ctx.database.db;
  const badge = async (path: string) => {
    const res = await ctx.app.request(`http://localhost${path}`);
    return { res, text: await res.text() };
  };
  const stateOf = async (path: string) => /<title>.*: (\w+)<\/title>/.exec((await badge(path)).text)?.[1];
  /** Every device of the demo pushed a moment ago, every minute. */
  const allFresh = () =>
    db().execute(
      sql`update devices set last_message_at = ${new Date(TEST_NOW.getTime() - 30_000)}, push_interval = 60`,
    );

  it("answers a small SVG with the name and a cache of at most a minute", async () => {
    await allFresh();
    const { res, text } = await badge(REPORT_BADGE);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(1024);
    expect(text).toContain("<title>Lab Climate — Last 24 Hours: OK</title>");
    expect(await stateOf(DEVICE_BADGE)).toBe("OK");
  });

  it("stays well-formed XML for a name stored with a control character before names refused them", async () => {
    await db().execute(
      sql`update reports set name = ${'Ware\u0001house <&> "x"'} where public_hash = ${DEMO.reportHash}`,
    );
    const { text } = await badge(REPORT_BADGE);
    expect(text).not.toContain("\u0001");
    expect(text).toContain("Warehouse &lt;&amp;&gt; &quot;x&quot;");
  });

  it("says alarm while an alarm is open on the report's channel or the device, and OK once it clears", async () => {
    await allFresh();
    const admin = browser(ctx.app);
    await signIn(admin, "admin@example.com");
    const rule = await admin.json("/api/v1/alerts/rules", {
      name: "Cold room warm",
      channelKey: COLD_TEMP,
      condition: { type: "above", high: 8, scale: "C" },
      notify: { emails: [] },
    });
    expect(rule.status).toBe(200);
    await push({ macAddress: MAC, readings: [{ channelKey: COLD_TEMP, value: 9, time: NOW_S - 20 }] });
    expect(await stateOf(REPORT_BADGE)).toBe("alarm");
    expect(await stateOf(DEVICE_BADGE)).toBe("alarm");
    await push({ macAddress: MAC, readings: [{ channelKey: COLD_TEMP, value: 4, time: NOW_S - 10 }] });
    expect(await stateOf(REPORT_BADGE)).toBe("OK");
  });

  it("says silent when a device of the link is overdue by more than the grace", async () => {
    await allFresh();
    await db().execute(
      sql`update devices set last_message_at = ${new Date(TEST_NOW.getTime() - 3_600_000)} where mac_address = ${MAC}`,
    );
    expect(await stateOf(REPORT_BADGE)).toBe("silent");
    expect(await stateOf(DEVICE_BADGE)).toBe("silent");
  });

  it("answers 404 once the report's link is paused or deleted and the device's link deleted", async () => {
    const admin = browser(ctx.app);
    await signIn(admin, "admin@example.com");
    const [report] = await rows<{ id: number }>(
      db(),
      sql`select id from reports where public_hash = ${DEMO.reportHash}`,
    );
    const [device] = await rows<{ id: number }>(db(), sql`select id from devices where mac_address = ${MAC}`);
    expect(
      (await admin.json(`/api/v1/reports/${report!.id}/public-link`, { paused: true }, "PATCH")).status,
    ).toBe(200);
    expect((await badge(REPORT_BADGE)).res.status).toBe(404);
    expect((await admin.delete(`/api/v1/reports/${report!.id}/public-link`)).status).toBe(200);
    expect((await badge(REPORT_BADGE)).res.status).toBe(404);
    expect((await admin.delete(`/api/v1/device-data/public-link/${device!.id}`)).status).toBe(200);
    expect((await badge(DEVICE_BADGE)).res.status).toBe(404);
    expect((await badge("/public/report/not-a-hash/badge.svg")).res.status).toBe(404);
  });
});
