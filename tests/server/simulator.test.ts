import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { devices, sensors } from "../../server/db/schema/index.ts";
import { emptyDatabase, seedDemo } from "../../server/seed/index.ts";
import { startSimulator } from "../../server/seed/simulator.ts";
import { testConfig, useTestApp } from "./helpers.ts";

describe("device simulator", () => {
  const ctx = useTestApp();
  let close = () => {};
  afterEach(() => close());

  it("pushes readings through the real push endpoint, leaving stale sensors silent", async () => {
    const now = new Date();
    await emptyDatabase(ctx.database.db);
    await seedDemo(ctx.database.db, { now, sampleDays: 0 });
    const app = buildApp({ db: ctx.database.db, config: testConfig({ DEMO: "1" }) });
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise((r) => server.once("listening", r));
    close = () => server.close();
    const port = (server.address() as AddressInfo).port;
    const stale = async () =>
      (await ctx.database.db.select().from(sensors).where(eq(sensors.macAddress, "W1A004")))[0]!
        .lastReceivedAt;
    const staleBefore = await stale();

    const sim = startSimulator(ctx.database.db, `http://127.0.0.1:${port}`, 3600);
    await sim.tick();
    sim.stop();

    const lab = (
      await ctx.database.db.select().from(devices).where(eq(devices.macAddress, "00:1A:2B:3C:4D:01"))
    )[0]!;
    expect(lab.lastMessageAt!.getTime()).toBeGreaterThanOrEqual(now.getTime());
    const fresh = (await ctx.database.db.select().from(sensors).where(eq(sensors.macAddress, "W1A001")))[0]!;
    // Reading times are whole seconds.
    expect(fresh.lastReceivedAt!.getTime()).toBeGreaterThanOrEqual(Math.floor(now.getTime() / 1000) * 1000);
    expect(await stale()).toEqual(staleBefore);
  });
});
