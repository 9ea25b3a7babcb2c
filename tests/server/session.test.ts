import { describe, expect, it } from "vitest";
import { browser, signIn } from "./client.ts";
import { useTestApp } from "./helpers.ts";

describe("session API", () => {
  const ctx = useTestApp({ seeded: true });

  it("fails without a session", async () => {
    for (const path of [
      "/api/v1/session",
      "/api/v1/session/subscription/stats",
      "/api/v1/account-messages",
      "/api/v1/account/mfa",
      "/api/v1/account/sessions",
    ]) {
      const res = await browser(ctx.app).get(path);
      expect(res.status).toBe(401);
      expect((await res.json()).data[0].message).toBe("You are not signed in.");
    }
  });

  it("describes the user, their assignments and the active subscription", async () => {
    const b = browser(ctx.app);
    await signIn(b, "admin@example.com");
    const { data } = await (await b.get("/api/v1/session")).json();
    expect(data.termsAccepted).toBe(true);
    expect(data.sessionInformation).toMatchObject({
      email: "admin@example.com",
      firstName: "Ada",
      timezone: "America/New_York",
      temperatureScale: "C",
      activeSubscription: {
        name: "Acme Labs",
        role: { id: 55100, name: "ADMIN", displayName: "Administrator" },
        tier: { name: "Professional" },
        supportsRoles: true,
        samlEnabled: false,
      },
    });
    expect(
      data.sessionInformation.userAssignmentList.map((a: { subscriptionName: string }) => a.subscriptionName),
    ).toEqual(["Acme Labs", "Northwind Cold Storage"]);
  });

  it("counts the subscription's users, devices and reports against its limits", async () => {
    const b = browser(ctx.app);
    await signIn(b, "viewer@example.com");
    const { data } = await (await b.get("/api/v1/session/subscription/stats")).json();
    expect(data).toMatchObject({
      userCount: 6,
      deviceCount: 3,
      reportCount: 2,
      userLimit: 25,
      deviceLimit: 100,
      dataAgeLimitUnit: "YEAR",
    });
  });

  it("records acceptance of the terms", async () => {
    const b = browser(ctx.app);
    await signIn(b, "newhire@example.com");
    expect((await (await b.get("/api/v1/session/terms-accepted")).json()).data).toEqual({
      termsAccepted: false,
    });
    await b.json("/api/v1/session/terms-accepted", {});
    expect((await (await b.get("/api/v1/session")).json()).data.termsAccepted).toBe(true);
  });

  it("saves the temperature scale and time zone, refusing unknown values beside their fields", async () => {
    const b = browser(ctx.app);
    await signIn(b, "viewer@example.com");
    const bad = await b.json(
      "/api/v1/session/settings",
      { temperatureScale: "K", timezone: "Mars/Base" },
      "PATCH",
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).data).toEqual([
      { field: "temperatureScale", message: "Choose C or F." },
      { field: "timezone", message: "Unknown time zone." },
    ]);
    const ok = await b.json(
      "/api/v1/session/settings",
      { temperatureScale: "F", timezone: "Europe/Berlin" },
      "PATCH",
    );
    expect((await ok.json()).data).toEqual({ temperatureScale: "F", timezone: "Europe/Berlin" });
    const { data } = await (await b.get("/api/v1/session")).json();
    expect(data.sessionInformation).toMatchObject({ temperatureScale: "F", timezone: "Europe/Berlin" });
  });

  it("switches the active subscription only to one the user belongs to", async () => {
    const admin = browser(ctx.app);
    await signIn(admin, "admin@example.com");
    const { data } = await (await admin.get("/api/v1/session")).json();
    const northwind = data.sessionInformation.userAssignmentList[1].subscriptionId;
    expect(
      (await admin.json("/api/v1/session/active-subscription", { subscriptionId: northwind })).status,
    ).toBe(200);
    const after = (await (await admin.get("/api/v1/session")).json()).data.sessionInformation
      .activeSubscription;
    expect(after).toMatchObject({ name: "Northwind Cold Storage", role: { displayName: "Viewer" } });

    const viewer = browser(ctx.app);
    await signIn(viewer, "viewer@example.com");
    expect(
      (await viewer.json("/api/v1/session/active-subscription", { subscriptionId: northwind })).status,
    ).toBe(403);
  });

  it("lists unread messages of the active subscription newest first, and dismisses one", async () => {
    const b = browser(ctx.app);
    await signIn(b, "admin@example.com");
    const list = (await (await b.get("/api/v1/account-messages")).json()).data;
    expect(list.map((m: { title: string }) => m.title)).toEqual([
      "New firmware available",
      "Scheduled maintenance",
    ]);
    expect((await b.json("/api/v1/account-messages/dismiss-message", { messageId: list[0].id })).status).toBe(
      200,
    );
    const after = (await (await b.get("/api/v1/account-messages")).json()).data;
    expect(after.map((m: { title: string }) => m.title)).toEqual(["Scheduled maintenance"]);
  });

  it("never shows or dismisses another subscription's messages", async () => {
    const owner = browser(ctx.app);
    await signIn(owner, "owner@northwind.example.com");
    const theirs = (await (await owner.get("/api/v1/account-messages")).json()).data;
    expect(theirs.map((m: { title: string }) => m.title)).toEqual(["Northwind notice"]);
    const acme = browser(ctx.app);
    await signIn(acme, "admin@example.com");
    const res = await acme.json("/api/v1/account-messages/dismiss-message", { messageId: theirs[0].id });
    expect(res.status).toBe(404);
  });
});
