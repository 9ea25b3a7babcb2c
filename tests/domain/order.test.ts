import { describe, expect, it } from "vitest";
import {
  balanceDue,
  billingStatus,
  dueDate,
  epochSeconds,
  needsPayment,
  orderLinkId,
  orderPayable,
  parsePublicOrderRef,
  poDisplay,
  publicOrderRef,
  publicShippingStatus,
  shippingProgress,
} from "../../src/domain/index.ts";

describe("billingStatus", () => {
  it.each([
    ["Cancelled", "Cancelled"],
    ["Refunded", "Refunded"],
    ["Closed", "Closed"],
    ["Pending", "Paid"],
    ["Paid", "Paid"],
    ["New", "Open"],
    ["Dead", "Open"],
    ["Part Paid", "Open"],
    ["Hold", "Open"],
    ["Invoiced", "Open"],
    ["Open", "Open"],
    ["Something else", "Open"],
    [null, "Open"],
  ])("maps payment status %s to %s", (status, billing) => {
    expect(billingStatus(status)).toBe(billing);
  });
});

describe("needsPayment", () => {
  it.each([
    ["Open", true],
    ["Invoiced", true],
    ["Part Paid", true],
    ["CANCELLED", false],
    ["closed", false],
    ["Paid", false],
    ["Hold", false],
    ["Dead", false],
    ["Refunded", false],
    [null, false],
    ["", false],
  ])("says %s needs payment: %s", (status, expected) => {
    expect(needsPayment(status)).toBe(expected);
  });
});

describe("publicShippingStatus", () => {
  const shipped = epochSeconds(1_700_000_000);
  const d = (isDelivered: boolean) => ({ isDelivered });
  it.each([
    ["Cancelled", null, [d(true)], "cancelled"],
    ["Open", shipped, [d(true)], "received"],
    ["Hold", null, [], "hold"],
    ["Shipped", shipped, [d(true), d(false)], "partial"],
    ["Shipped", shipped, [d(true), d(true)], "delivered"],
    ["Shipped", shipped, [d(true)], "delivered"],
    ["Shipped", shipped, [d(false)], "shipped"],
    ["Shipped", null, [d(false)], "received"],
    ["Received", null, [], "received"],
  ] as const)(
    "gives %s (shipped at %s, %j) as %s",
    (shippingStatus, shippingTimestamp, shipments, expected) => {
      expect(publicShippingStatus({ shippingStatus, shippingTimestamp, shipments })).toBe(expected);
    },
  );
});

describe("order numbers and dates", () => {
  it("puts the due date 2,592,000 seconds after shipping", () => {
    expect(dueDate(epochSeconds(1_000))).toBe(2_593_000);
    expect(dueDate(null)).toBeNull();
  });

  it("shows '-' for a missing PO number", () => {
    expect(poDisplay(null)).toBe("-");
    expect(poDisplay("  ")).toBe("-");
    expect(poDisplay("PO-77")).toBe("PO-77");
  });

  it("builds and reads ORD-{id}-{validationId}", () => {
    expect(publicOrderRef(12, "abcDEF")).toBe("ORD-12-abcDEF");
    expect(parsePublicOrderRef("ORD-12-abcDEF")).toEqual({ id: 12, validationId: "abcDEF" });
    expect(parsePublicOrderRef("12-x_y")).toEqual({ id: 12, validationId: "x_y" });
    expect(parsePublicOrderRef("ORD-12")).toBeNull();
  });

  it("forms link ids as id-(id+crmOrgId)", () => {
    expect(orderLinkId(100, 5000)).toBe("100-5100");
  });
});

describe("the signed-in shipping progress", () => {
  const none: { isDelivered: boolean }[] = [];
  it.each([
    ["Cancelled", 5, 0, none, "cancelled"],
    ["Hold", 5, 0, none, "hold"],
    ["No Shipment", 5, 0, none, "completed"],
    ["Received", 5, 0, none, "received"],
    ["Open", 5, 0, none, "received"],
    ["Shipped", 5, 2, [{ isDelivered: true }], "partial"],
    ["Shipped", 5, 5, [{ isDelivered: false }], "shipped"],
    ["Shipped", 5, 5, [{ isDelivered: true }, { isDelivered: true }], "delivered"],
    ["Something else", 5, 0, none, "unknown"],
  ] as const)(
    "reads %s with %i ordered and %i shipped",
    (shippingStatus, ordered, shipped, shipments, want) => {
      expect(shippingProgress({ shippingStatus, ordered, shipped, shipments })).toBe(want);
    },
  );
});

describe("balanceDue", () => {
  it.each([
    [10_000, 0, 10_000],
    [10_000, 2_500, 7_500],
    [10_000, 10_000, 0],
    // Overpaid (a payment recorded by the back office besides a card payment): nothing is due.
    [10_000, 12_000, 0],
    [0, 0, 0],
  ])("owes %i - %i paid = %i", (total, paid, due) => {
    expect(balanceDue(total, paid)).toBe(due);
  });
});

describe("orderPayable", () => {
  it.each([
    ["Open", 500, true],
    ["Part Paid", 1, true],
    ["Invoiced", 500, true],
    ["open", 500, true],
    ["Open", 0, false],
    ["Open", -5, false],
    ["Paid", 500, false],
    ["Cancelled", 500, false],
    ["Closed", 500, false],
    ["Hold", 500, false],
    ["Dead", 500, false],
    ["Refunded", 500, false],
    [null, 500, false],
    ["", 500, false],
  ] as const)("takes a guest payment for status %s with %i due: %s", (paymentStatus, due, payable) => {
    expect(orderPayable({ paymentStatus, balanceDue: due })).toBe(payable);
  });
});
