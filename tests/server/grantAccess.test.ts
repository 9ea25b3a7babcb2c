import { and, desc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { sha256 } from "../../server/core/crypto.ts";
import { rows } from "../../server/db/client.ts";
import { authTokens, outbox, subscriptions, userAssignments, users } from "../../server/db/schema/index.ts";
import { saveSamlConfig } from "../../server/data/saml.ts";
import { DEMO } from "../../server/seed/demo.ts";
import { GRANT_ACCESS_MESSAGES } from "../../src/api/grantAccess.ts";
import { INVALID_EMAIL, LINK_INVALID } from "../../src/domain/auth.ts";
import { planLimitMessage } from "../../src/domain/plan.ts";
import { Role } from "../../src/domain/roles.ts";
import { browser, signIn } from "./client.ts";
import { TEST_NOW, testConfig, useTestApp } from "./helpers.ts";

const PATH = "/subscription/data/grant-access";
const NORTHWIND_ORDER = 5012;
const ACCOUNT_ORIGIN = "https://account.portal.test";
const tokenIn = (text: string) => /\/user\/validate\?token=([\w-]+)/.exec(text)?.[1];

describe("Grant Account Access", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;
  const app = (now = TEST_NOW) =>
    buildApp({ db: db(), config: testConfig({ ACCOUNT_ORIGIN }), now: () => now });
  const as = async (email: string, a = ctx.app) => {
    const b = browser(a);
    await signIn(b, email);
    return b;
  };
  const grant = (fields: Record<string, string>) => ({
    isQuote: "true",
    resourceId: String(DEMO.openQuoteId),
    ...fields,
  });
  const lastMail = async () => (await db().select().from(outbox).orderBy(desc(outbox.id)).limit(1))[0]!;
  const rolesOf = async (email: string) =>
    db()
      .select({ sub: subscriptions.name, roleId: userAssignments.roleId })
      .from(userAssignments)
      .innerJoin(users, eq(users.id, userAssignments.userId))
      .innerJoin(subscriptions, eq(subscriptions.id, userAssignments.subscriptionId))
      .where(eq(users.email, email));
  const errorsOf = async (res: Response) => ((await res.json()) as { data: { message: string }[] }).data;

  it("adds an existing profile at once with the Billing role where advanced roles exist", async () => {
    const admin = await as("admin@example.com");
    const res = await admin.form(PATH, grant({ emailAddress: " Owner@Northwind.example.com " }));
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({
      outcome: "added",
      emailAddress: "owner@northwind.example.com",
      role: "Billing",
    });
    expect(await rolesOf("owner@northwind.example.com")).toContainEqual({
      sub: "Acme Labs",
      roleId: Role.BILLING,
    });
    expect((await lastMail()).to).toBe("owner@northwind.example.com");
  });

  it("adds with the Administrator role where the subscription has no advanced roles", async () => {
    const owner = await as("owner@northwind.example.com");
    const res = await owner.form(
      PATH,
      grant({ isQuote: "false", resourceId: String(NORTHWIND_ORDER), emailAddress: "viewer@example.com" }),
    );
    expect((await res.json()).data).toMatchObject({ outcome: "added", role: "Administrator" });
    expect(await rolesOf("viewer@example.com")).toContainEqual({
      sub: "Northwind Cold Storage",
      roleId: Role.ADMINISTRATOR,
    });
  });

  it("says so when the person already belongs to the subscription, adding nothing", async () => {
    const admin = await as("admin@example.com");
    const res = await admin.form(PATH, grant({ emailAddress: "viewer@example.com" }));
    expect(res.status).toBe(409);
    expect(await errorsOf(res)).toEqual([
      { field: "emailAddress", message: GRANT_ACCESS_MESSAGES.alreadyMember },
    ]);
    expect(await rolesOf("viewer@example.com")).toEqual([{ sub: "Acme Labs", roleId: Role.VIEWER }]);
  });

  it("makes one membership of two grants sent at the same moment", async () => {
    const admin = await as("admin@example.com");
    const fields = grant({ emailAddress: "owner@northwind.example.com" });
    const answers = await Promise.all([admin.form(PATH, fields), admin.form(PATH, fields)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const acme = (await rolesOf("owner@northwind.example.com")).filter((r) => r.sub === "Acme Labs");
    expect(acme).toHaveLength(1);
  });

  it("mails an invitation from the configured origin that registers the person into the subscription", async () => {
    const a = app();
    const admin = await as("admin@example.com", a);
    const res = await admin.form(PATH, grant({ emailAddress: "New.Colleague@Example.com" }));
    expect((await res.json()).data).toEqual({
      outcome: "invited",
      emailAddress: "new.colleague@example.com",
      role: "Billing",
    });
    const mail = await lastMail();
    expect(mail.to).toBe("new.colleague@example.com");
    expect(mail.text).toContain(`${ACCOUNT_ORIGIN}/user/validate?token=`);
    const token = tokenIn(mail.text)!;
    // Only the token's hash is stored.
    const stored = await db()
      .select()
      .from(authTokens)
      .where(eq(authTokens.email, "new.colleague@example.com"));
    expect(stored.map((t) => t.tokenHash)).toEqual([sha256(token)]);
    const invitee = browser(a);
    const fields = { token, firstName: "New", lastName: "Colleague", password: "a-good-password" };
    expect((await invitee.form("/user/validate", fields)).status).toBe(200);
    expect(await rolesOf("new.colleague@example.com")).toEqual([{ sub: "Acme Labs", roleId: Role.BILLING }]);
    const session = await (await invitee.get("/api/v1/session")).json();
    expect(JSON.stringify(session.data)).toContain("Acme Labs");
    // Single use: the same link cannot register again.
    const again = await browser(a).form("/user/validate", { ...fields, lastName: "Again" });
    expect(again.status).toBe(400);
    expect(await errorsOf(again)).toEqual([{ field: "token", message: LINK_INVALID }]);
  });

  it("places an address invited twice once: the first link used joins, the other is refused", async () => {
    const admin = await as("admin@example.com");
    const fields = grant({ emailAddress: "twice@example.com" });
    const answers = await Promise.all([admin.form(PATH, fields), admin.form(PATH, fields)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const mails = await db().select().from(outbox).where(eq(outbox.to, "twice@example.com"));
    const [first, second] = mails.map((m) => tokenIn(m.text)!);
    const register = (token: string) =>
      browser(ctx.app).form("/user/validate", {
        token,
        firstName: "Twice",
        lastName: "Invited",
        password: "a-good-password",
      });
    expect((await register(first!)).status).toBe(200);
    expect((await register(second!)).status).toBe(400);
    expect(await rolesOf("twice@example.com")).toEqual([{ sub: "Acme Labs", roleId: Role.BILLING }]);
  });

  describe("within the plan's user limit", () => {
    /** The subscription's plan with room for `free` more people than it has now; the new limit. */
    const roomFor = async (name: string, free: number) => {
      const members = sql`(select count(*) from user_assignments u where u.subscription_id = subscriptions.id)`;
      const [row] = await rows<{ users: number }>(
        db(),
        sql`update subscriptions set limits = limits || jsonb_build_object('users', ${members} + ${free}::int)
            where name = ${name} returning (limits->>'users')::int as users`,
      );
      return row!.users;
    };
    const memberCount = async (name: string) =>
      (
        await rows<{ n: number }>(
          db(),
          sql`select count(*)::int as n from user_assignments a join subscriptions s on s.id = a.subscription_id
              where s.name = ${name}`,
        )
      )[0]!.n;

    it("counts an invitation as a place until it is used or expires, and refuses past the limit", async () => {
      const limit = await roomFor("Acme Labs", 1);
      const admin = await as("admin@example.com");
      expect((await admin.form(PATH, grant({ emailAddress: "first@example.com" }))).status).toBe(200);
      const full = await admin.form(PATH, grant({ emailAddress: "second@example.com" }));
      expect(full.status).toBe(403);
      expect(await errorsOf(full)).toEqual([{ field: null, message: planLimitMessage("users", limit) }]);
      // The same address invited again keeps its one place.
      expect((await admin.form(PATH, grant({ emailAddress: "FIRST@example.com" }))).status).toBe(200);
      // An existing profile needs a place too.
      expect((await admin.form(PATH, grant({ emailAddress: "owner@northwind.example.com" }))).status).toBe(
        403,
      );
      expect(await memberCount("Acme Labs")).toBe(limit - 1);
      // 73 hours on, the unused invitation no longer holds its place.
      const later = await as("admin@example.com", app(new Date(TEST_NOW.getTime() + 73 * 3_600_000)));
      expect((await later.form(PATH, grant({ emailAddress: "second@example.com" }))).status).toBe(200);
    });

    it("gives the last place to one of two people added at the same moment", async () => {
      const limit = await roomFor("Northwind Cold Storage", 1);
      const owner = await as("owner@northwind.example.com");
      const answers = await Promise.all(
        ["viewer@example.com", "manager@example.com"].map((emailAddress) =>
          owner.form(PATH, grant({ isQuote: "false", resourceId: String(NORTHWIND_ORDER), emailAddress })),
        ),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([200, 403]);
      expect(await memberCount("Northwind Cold Storage")).toBe(limit);
    });

    it("gives the last place to one of two invitations sent at the same moment", async () => {
      await roomFor("Acme Labs", 1);
      const admin = await as("admin@example.com");
      const answers = await Promise.all(
        ["one@example.com", "two@example.com"].map((emailAddress) =>
          admin.form(PATH, grant({ emailAddress })),
        ),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([200, 403]);
    });
  });

  it("sends at most 30 grants an hour from one subscription", async () => {
    const admin = await as("admin@example.com");
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await admin.form(PATH, grant({ emailAddress: "viewer@example.com" }))).status);
    expect(statuses.filter((s) => s === 409)).toHaveLength(30);
    expect(statuses.at(-1)).toBe(429);
  });

  it("lets an invitation expire after 72 hours", async () => {
    const admin = await as("admin@example.com");
    await admin.form(PATH, grant({ emailAddress: "late@example.com" }));
    const token = tokenIn((await lastMail()).text)!;
    const later = app(new Date(TEST_NOW.getTime() + 73 * 3_600_000));
    const res = await browser(later).get(`/user/validate/check?token=${token}`);
    expect(res.status).toBe(400);
    const [row] = await db().select().from(authTokens).where(eq(authTokens.email, "late@example.com"));
    expect(row!.expiresAt.getTime() - TEST_NOW.getTime()).toBe(72 * 3_600_000);
  });

  it("refuses a federated subscription with the identity provider message", async () => {
    // Signed in before the subscription turns federated: afterwards only its provider signs in.
    const owner = await as("owner@northwind.example.com");
    const [northwind] = await db()
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.name, "Northwind Cold Storage"));
    await saveSamlConfig(db(), {
      name: "northwind",
      subscriptionId: northwind!.id,
      entryPoint: "https://idp.example.test/sso",
      issuer: "https://idp.example.test",
      idpCert: "unused",
    });
    const res = await owner.form(
      PATH,
      grant({ isQuote: "false", resourceId: String(NORTHWIND_ORDER), emailAddress: "someone@example.com" }),
    );
    expect(res.status).toBe(403);
    expect(await errorsOf(res)).toEqual([{ field: null, message: GRANT_ACCESS_MESSAGES.federated }]);
    const pending = await rows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from pending_user_assignments`,
    );
    expect(pending[0]!.n).toBe(0);
  });

  it.each(["viewer@example.com", "manager@example.com", "billing@example.com", "provisioner@example.com"])(
    "refuses %s, who may not grant access",
    async (email) => {
      const b = await as(email);
      const res = await b.form(PATH, grant({ emailAddress: "someone@example.com" }));
      expect(res.status).toBe(403);
      expect((await db().select().from(outbox).where(eq(outbox.to, "someone@example.com"))).length).toBe(0);
    },
  );

  it("refuses a caller who is not signed in", async () => {
    const res = await browser(ctx.app).form(PATH, grant({ emailAddress: "someone@example.com" }));
    expect(res.status).toBe(401);
  });

  it("answers 404 for another subscription's order and for a missing quote or order", async () => {
    const admin = await as("admin@example.com");
    const foreign = grant({
      isQuote: "false",
      resourceId: String(NORTHWIND_ORDER),
      emailAddress: "x@example.com",
    });
    const missingQuote = grant({ resourceId: "999999", emailAddress: "x@example.com" });
    const missingOrder = grant({
      isQuote: "false",
      resourceId: String(DEMO.openQuoteId),
      emailAddress: "x@example.com",
    });
    for (const fields of [foreign, missingQuote, missingOrder]) {
      expect((await admin.form(PATH, fields)).status).toBe(404);
    }
    const invited = await db()
      .select()
      .from(authTokens)
      .where(and(eq(authTokens.email, "x@example.com"), eq(authTokens.purpose, "register")));
    expect(invited).toHaveLength(0);
  });

  it.each([
    ["resourceId", { resourceId: "abc" }],
    ["resourceId", { resourceId: "0" }],
    ["resourceId", { resourceId: "99999999999" }],
    ["isQuote", { isQuote: "maybe" }],
    ["emailAddress", { emailAddress: "not-an-email" }],
  ])("refuses a bad %s with a 400 on that field", async (field, bad) => {
    const admin = await as("admin@example.com");
    const res = await admin.form(PATH, { ...grant({ emailAddress: "someone@example.com" }), ...bad });
    expect(res.status).toBe(400);
    const errors = (await res.json()).data as { field: string }[];
    expect([...new Set(errors.map((e) => e.field))]).toEqual([field]);
  });

  it("refuses missing fields with a 400 naming each", async () => {
    const admin = await as("admin@example.com");
    const res = await admin.form(PATH, {});
    expect(res.status).toBe(400);
    const errors = (await res.json()).data as { field: string; message: string }[];
    expect(errors.map((e) => e.field).sort()).toEqual(["emailAddress", "isQuote", "resourceId"]);
    expect(errors.find((e) => e.field === "emailAddress")?.message).toBe(INVALID_EMAIL);
  });
});
