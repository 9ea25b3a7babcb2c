import { describe, expect, it } from "vitest";
import { createCarriers } from "../../server/services/carriers.ts";
import { TRACKING_NUMBER_RULE } from "../../server/routes/tracking.ts";
import { useTestApp } from "./helpers.ts";

const ORIGIN = "http://localhost";
const HOUR = 3_600_000;
/** The seeded tracking number of order 5004's one (delivered) shipment. */
const DELIVERED = `1Z999AA150040${String(5004 * 7).padStart(6, "0")}`;
const trackingPath = (n: string) => `/shipments/tracking-details/${n}`;

/** A caller at its own address (rate limits count per client address). */
const peer = (address: string) => ({
  incoming: { socket: { remoteAddress: address, remotePort: 40000, remoteFamily: "IPv4" } },
});

describe("shipment tracking", () => {
  const ctx = useTestApp({ seeded: true });
  const get = async (n: string, address = "10.0.0.1") =>
    ctx.app.request(`${ORIGIN}${trackingPath(n)}`, { headers: { origin: ORIGIN } }, peer(address));

  it("lists the carrier activity newest first, dated 'MMM DD, YYYY' and 'h:mm A' in UTC", async () => {
    const res = await get(DELIVERED);
    expect(res.status).toBe(200);
    const { method, activity } = (await res.json()).data.trackingDetails;
    expect(method).toBe("Ground");
    expect(activity.map((a: { description: string }) => a.description)).toEqual([
      "Delivered",
      "Out for delivery",
      "Arrived at facility",
      "Departed from facility",
      "Shipment picked up",
    ]);
    // Shipped 20 days before TEST_NOW (2026-11-22 12:00 UTC), delivered 46 hours later.
    expect(activity[0]).toEqual({
      at: Date.parse("2026-11-04T10:00:00Z") / 1000,
      locationDescription: "Boston, MA, US",
      date: "Nov 04, 2026",
      time: "10:00 AM",
      description: "Delivered",
      signedForByName: "R. MORALES",
    });
    expect(activity.at(-1)).toMatchObject({ date: "Nov 02, 2026", time: "12:00 PM", signedForByName: null });
  });

  it("answers 404 for a number no shipment carries", async () => {
    const res = await get("1Z999AA10000000000");
    expect(res.status).toBe(404);
    expect((await res.json()).data).toEqual([{ field: null, message: "Not found." }]);
  });

  it("refuses a number that is not 6 to 40 letters and digits with a 400 beside the field", async () => {
    for (const n of [
      "12345",
      "x".repeat(41),
      "1Z999-AA1",
      "1Z 999AA1",
      "%E2%80%AE1Z999AA1",
      "..%2F..%2Fetc",
    ]) {
      const res = await get(n);
      expect([n, res.status]).toEqual([n, 400]);
      expect((await res.json()).data).toEqual([{ field: "trackingNumber", message: TRACKING_NUMBER_RULE }]);
    }
    expect((await get("%00")).status).toBe(400);
  });

  it("limits the unknown numbers a client may try, parallel requests included, and not other clients", async () => {
    const unknown = (i: number) => `1Z000000${String(i).padStart(8, "0")}`;
    const statuses = await Promise.all(
      Array.from({ length: 36 }, (_, i) => get(unknown(i)).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 404)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    const refused = await get(DELIVERED);
    expect(refused.status).toBe(429);
    expect((await refused.json()).data).toEqual([
      { field: null, message: "Too many attempts. Try again in 15 minutes." },
    ]);
    expect((await get(DELIVERED, "10.0.0.2")).status).toBe(200);
  });

  it("does not count a number that is found", async () => {
    for (let i = 0; i < 40; i++) expect((await get(DELIVERED)).status).toBe(200);
    expect((await get("1Z99900000000000")).status).toBe(404);
  });
});

describe("the default carrier", () => {
  it("gives the reader's scans newest first, whatever order they come in", async () => {
    const at = (h: number) => new Date(Date.UTC(2026, 10, 1) + h * HOUR);
    const scan = (h: number) => ({ at: at(h), location: "X", description: `h${h}`, signedForByName: null });
    const carriers = createCarriers(async () => ({
      method: "Ground",
      activity: [scan(1), scan(3), scan(2)],
    }));
    const tracking = await carriers.tracking("1Z999AA1");
    expect(tracking?.activity.map((a) => a.description)).toEqual(["h3", "h2", "h1"]);
    expect(await createCarriers(async () => null).tracking("1Z999AA1")).toBeNull();
  });
});
