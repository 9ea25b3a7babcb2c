import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createOpsToken } from "../../server/data/opsTokens.ts";
import { createInvitation } from "../../server/data/grantAccess.ts";
import {
  orders,
  outbox,
  samlConfigs,
  subscriptions,
  userAssignments,
  users,
} from "../../server/db/schema/index.ts";
import { Role } from "../../src/domain/roles.ts";
import { browser, type Browser } from "./client.ts";
import { cardFormFor, quotePath } from "./guestPayKit.ts";
import { TEST_NOW, useTestApp } from "./helpers.ts";

/*
 * Issue 32, items 1 and 2, replayed: an address typed into a payment or order form, and a
 * registration from a record of a federated subscription, no longer let anyone into the
 * customer's subscription.
 */

const ORIGIN = "http://localhost";
const ATTACKER = "mallory@evil.example";
const tokenIn = (text: string) => /\/user\/validate\?token=([\w-]+)/.exec(text)![1]!;

describe("joining a subscription from a quote or order", () => {
  const ctx = useTestApp({ seeded: true });
  const db = () => ctx.database.db;

  /** The back office's quote: one line at one cent, without a contact email unless given. */
  const opsQuote = async (subscriptionId: number, id: number, contactEmail?: string) => {
    const { token } = await createOpsToken(db(), "erp", TEST_NOW);
    const res = await ctx.app.request(`${ORIGIN}/api/v1/ops/quotes`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${token}`,
        "idempotency-key": `attack32-${id}`,
      },
      body: JSON.stringify({
        id,
        subscriptionId,
        productFamily: "Environmental Monitoring",
        contactName: "Pat Buyer",
        ...(contactEmail && { contactEmail }),
        needsShipping: false,
        lineItems: [{ productNumber: "CENT", description: "One cent", quantity: 1, listPrice: 1 }],
      }),
    });
    expect(res.status).toBe(200);
    return (await res.json()).data as { publicToken: string; grandTotal: number };
  };
  const newSubscription = async (name: string) =>
    (
      await db()
        .insert(subscriptions)
        .values({ name, tierName: "Pro", limits: { users: 10 }, features: {} })
        .returning()
    )[0]!.id;
  /** Pays a quote as a guest who types `email` into the card form; the order's id. */
  const payAsGuest = async (quote: { publicToken: string; grandTotal: number }, email: string) => {
    const form = cardFormFor("123", email)({ grandTotal: String(quote.grandTotal) });
    const res = await browser(ctx.app, ORIGIN).form(quotePath(quote.publicToken), form);
    expect(res.status).toBe(200);
    const [order] = await db()
      .select()
      .from(orders)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(1);
    return order!;
  };
  /** Registers `email` from `referrer` and follows the mailed link; the signed-in browser. */
  const register = async (email: string, referrer: string) => {
    const b = browser(ctx.app, ORIGIN);
    expect((await b.form("/user/new/sign-up", { emailAddress: email, referrer })).status).toBe(200);
    const [mail] = await db().select().from(outbox).orderBy(desc(outbox.id)).limit(1);
    const fields = { token: tokenIn(mail!.text), firstName: "M", lastName: "X", password: "a-good-password" };
    expect((await b.form("/user/validate", fields)).status).toBe(200);
    expect((await b.json("/api/v1/session/terms-accepted", {})).status).toBe(200);
    return b;
  };
  const activeOf = async (b: Browser) =>
    (await (await b.get("/api/v1/session")).json()).data.sessionInformation.activeSubscription as {
      id: number;
      role: { displayName: string };
    };
  const membersOf = async (subscriptionId: number) =>
    (
      await db()
        .select({ email: users.email, roleId: userAssignments.roleId })
        .from(userAssignments)
        .innerJoin(users, eq(users.id, userAssignments.userId))
        .where(eq(userAssignments.subscriptionId, subscriptionId))
    ).map((m) => m.email);

  it("keeps a guest payer's typed address as the receipt address, not the order's contact", async () => {
    const sub = await newSubscription("Quiet Labs");
    const order = await payAsGuest(await opsQuote(sub, 8101), ATTACKER);
    expect(order.contactEmail).toBeNull();
    expect(order.receiptEmail).toBe(ATTACKER);
  });

  it("gives a guest payer who registers from the order an account of their own, even when the customer has no members", async () => {
    const sub = await newSubscription("Quiet Labs");
    const order = await payAsGuest(await opsQuote(sub, 8102), ATTACKER);
    const b = await register(ATTACKER, `ord-${order.id}`);
    const active = await activeOf(b);
    expect(active.id).not.toBe(sub);
    expect(active.role.displayName).toBe("Administrator");
    expect(await membersOf(sub)).toEqual([]);
    const stolen = await b.get(`/api/v1/orders/${order.id}`);
    expect(stolen.status).toBe(404);
  });

  it("still places the quote's back-office contact in the customer's subscription", async () => {
    const sub = await newSubscription("Contact Labs");
    await opsQuote(sub, 8104, "Pat.Buyer@Contact.example");
    const b = await register("pat.buyer@contact.example", "quo-8104");
    expect(await activeOf(b)).toMatchObject({ id: sub, role: { displayName: "Administrator" } });
  });

  it("gives the back-office contact of a federated subscription's quote an account of its own", async () => {
    const sub = await newSubscription("Federated Labs");
    await db()
      .insert(samlConfigs)
      .values({
        name: "fedlabs",
        subscriptionId: sub,
        entryPoint: "https://idp.example/sso",
        issuer: "fedlabs",
        idpCert: "x",
      })
      .onConflictDoNothing();
    await db().update(subscriptions).set({ samlConfigName: "fedlabs" }).where(eq(subscriptions.id, sub));
    await opsQuote(sub, 8105, "pat@fedlabs.example");
    const b = await register("pat@fedlabs.example", "quo-8105");
    expect((await activeOf(b)).id).not.toBe(sub);
    expect(await membersOf(sub)).toEqual([]);
  });

  it("does not honour an invitation sent before the subscription became federated", async () => {
    const sub = await newSubscription("Soon Federated");
    const token = await createInvitation(
      db(),
      { email: "invited@soon.example", subscriptionId: sub, roleId: Role.BILLING },
      TEST_NOW,
    );
    await db()
      .insert(samlConfigs)
      .values({
        name: "soonfed",
        subscriptionId: sub,
        entryPoint: "https://idp.example/sso",
        issuer: "soonfed",
        idpCert: "x",
      })
      .onConflictDoNothing();
    await db().update(subscriptions).set({ samlConfigName: "soonfed" }).where(eq(subscriptions.id, sub));
    const b = browser(ctx.app, ORIGIN);
    const fields = { token, firstName: "I", lastName: "V", password: "a-good-password" };
    expect((await b.form("/user/validate", fields)).status).toBe(200);
    expect((await activeOf(b)).id).not.toBe(sub);
    expect(await membersOf(sub)).toEqual([]);
  });
});
