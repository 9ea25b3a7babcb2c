import { describe, expect, it } from "vitest";
import { resolveDeps } from "../../server/deps.ts";
import { payOnce, refusalAnswer, type PaymentPlan } from "../../server/flows/paymentFlow.ts";
import { testConfig, TEST_NOW, useTestApp } from "./helpers.ts";

// payOnce with plans of its own on the real database and sandbox gateway: the orders in
// between that HTTP cannot make happen on purpose.
describe("paying once per key", () => {
  const ctx = useTestApp();

  const plan = (price: PaymentPlan["price"]): PaymentPlan => ({
    key: "race-key-0001",
    subject: "order:9001",
    fingerprint: "same-request",
    details: { email: "payer@example.com", purchaseOrderNumber: null },
    card: { number: "4242424242424242", expMonth: "12", expYear: "30", cvv: "123" },
    limits: [],
    busy: "Another payment is under way.",
    price,
    record: async () => ({ answer: { status: 200, body: { success: true, data: "paid" } }, value: null }),
  });

  it("gives a request the first one's answer when that one paid between its key check and its price", async () => {
    const deps = resolveDeps({ db: ctx.database.db, config: testConfig(), now: () => TEST_NOW });
    const first = plan(async () => ({ amount: 1234 as never, currency: 840 }));
    let paidMeanwhile = false;
    // The second request has found no attempt yet; the first then pays the whole balance,
    // and the balance the second reads is no longer the one it was sent for.
    const second = plan(async () => {
      if (!paidMeanwhile) {
        paidMeanwhile = true;
        expect(await payOnce(deps, first)).toEqual({ status: 200, body: { success: true, data: "paid" } });
      }
      return refusalAnswer(409, "The balance changed.");
    });
    expect(await payOnce(deps, second)).toEqual({ status: 200, body: { success: true, data: "paid" } });
  });

  it("still refuses a price that is wrong when no request with the key paid", async () => {
    const deps = resolveDeps({ db: ctx.database.db, config: testConfig(), now: () => TEST_NOW });
    const refused = plan(async () => refusalAnswer(409, "The balance changed."));
    expect(await payOnce(deps, { ...refused, key: "race-key-0002" })).toEqual(
      refusalAnswer(409, "The balance changed."),
    );
  });
});
