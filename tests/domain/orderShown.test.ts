import { describe, expect, it } from "vitest";
import { remainingItemsNoted, shipsNothing, shownBalance } from "../../src/domain/orderShown.ts";

describe("shownBalance", () => {
  it.each(["Cancelled", "Refunded", "Closed"] as const)(
    "shows the status of a %s order, not its amount",
    (s) => {
      expect(shownBalance({ billingStatus: s, paymentBalanceDueCents: 152425 })).toEqual({
        kind: "status",
        status: s,
      });
    },
  );
  it.each(["Open", "Paid"] as const)("shows the amount of an %s order", (s) => {
    expect(shownBalance({ billingStatus: s, paymentBalanceDueCents: 1200 })).toEqual({
      kind: "amount",
      cents: 1200,
    });
  });
});

describe("shipsNothing", () => {
  it("follows the record's needsShipping flag when it has one", () => {
    expect(shipsNothing({ needsShipping: false, shippingAddress: {}, shippingAmount: 2995 })).toBe(true);
    expect(shipsNothing({ needsShipping: true, shippingAddress: null, shippingAmount: 0 })).toBe(false);
  });
  it("without the flag, finds nothing to ship with no shipping address, no shipping charge and no shipment", () => {
    expect(shipsNothing({ shippingAddress: null, shippingAmount: 0, shipmentCount: 0 })).toBe(true);
    expect(shipsNothing({ shippingAddress: null, shippingAmount: 1495, shipmentCount: 0 })).toBe(false);
    expect(shipsNothing({ shippingAddress: null, shippingAmount: 0, shipmentCount: 1 })).toBe(false);
    expect(shipsNothing({ shippingAddress: {}, shippingAmount: 0 })).toBe(false);
  });
  it("assumes a list row without the flag ships (it carries no address)", () => {
    expect(shipsNothing({})).toBe(false);
  });
});

describe("remainingItemsNoted", () => {
  const base = { unshippedItems: 2, shippingProgress: "partial", shipsNothing: false };
  it("notes unshipped items of an order still shipping", () => {
    expect(remainingItemsNoted(base)).toBe(true);
  });
  it("notes nothing for a complete, cancelled or nothing-to-ship order, or with everything shipped", () => {
    expect(remainingItemsNoted({ ...base, shippingProgress: "completed" })).toBe(false);
    expect(remainingItemsNoted({ ...base, shippingProgress: "cancelled" })).toBe(false);
    expect(remainingItemsNoted({ ...base, shipsNothing: true })).toBe(false);
    expect(remainingItemsNoted({ ...base, unshippedItems: 0 })).toBe(false);
  });
});
