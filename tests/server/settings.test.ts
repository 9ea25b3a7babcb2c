import { describe, expect, it } from "vitest";
import { browser, signIn } from "./client.ts";
import { useTestApp } from "./helpers.ts";

describe("account settings", () => {
  const ctx = useTestApp({ seeded: true });
  const signedIn = async () => {
    const b = browser(ctx.app);
    await signIn(b, "viewer@example.com");
    return b;
  };

  it("refuses an empty patch with a 400 that names the settings, and changes nothing", async () => {
    const b = await signedIn();
    const res = await b.json("/api/v1/session/settings", {}, "PATCH");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      success: false,
      data: [{ field: null, message: "Send temperatureScale or timezone." }],
    });
    const { data } = await (await b.get("/api/v1/session")).json();
    expect(data.sessionInformation).toMatchObject({ temperatureScale: "C", timezone: "UTC" });
  });

  it("changes only the field a patch names", async () => {
    const b = await signedIn();
    const res = await b.json("/api/v1/session/settings", { temperatureScale: "F" }, "PATCH");
    expect((await res.json()).data).toEqual({ temperatureScale: "F", timezone: "UTC" });
  });

  it.each([
    ["null for a setting", { timezone: null }, "timezone"],
    ["a number for a setting", { temperatureScale: 1 }, "temperatureScale"],
    ["an unknown field", { theme: "dark" }, null],
  ])("refuses %s with a 400", async (_name, body, field) => {
    const b = await signedIn();
    const res = await b.json("/api/v1/session/settings", body, "PATCH");
    expect(res.status).toBe(400);
    expect((await res.json()).data[0]).toEqual({ field, message: expect.any(String) });
  });
});
