import { describe, expect, it } from "vitest";
import {
  badgeFor,
  badgeOf,
  badgesOfKind,
  type BadgeKind,
  type BadgeOf,
  type Tone,
} from "../../src/domain/badges.ts";
import {
  batteryBand,
  billingStatus,
  epochSeconds,
  publicShippingStatus,
  pushStatusLabel,
  ShippingStatusCode,
} from "../../src/domain/index.ts";

const CASES: [BadgeOf, string, Tone][] = [
  [{ kind: "shipping", status: "received" }, "Received", "info"],
  [{ kind: "shipping", status: "shipped" }, "Shipped", "info"],
  [{ kind: "shipping", status: "delivered" }, "Delivered", "ok"],
  [{ kind: "shipping", status: "partial" }, "Partial", "warn"],
  [{ kind: "shipping", status: "cancelled" }, "Cancelled", "bad"],
  // Spec section 4: "Hold looks like Received".
  [{ kind: "shipping", status: "hold" }, "Received", "info"],
  // Spec section 4: "Partial, Cancelled and Complete are single badges".
  [{ kind: "shipping", status: "completed" }, "Complete", "ok"],
  [{ kind: "shipping", status: "unknown" }, "Unknown", "muted"],
  [{ kind: "billing", status: "Open" }, "Open", "warn"],
  [{ kind: "billing", status: "Paid" }, "Paid", "ok"],
  [{ kind: "billing", status: "Cancelled" }, "Cancelled", "bad"],
  [{ kind: "billing", status: "Refunded" }, "Refunded", "info"],
  [{ kind: "billing", status: "Closed" }, "Closed", "muted"],
  [{ kind: "push", status: "Pushing" }, "Pushing", "ok"],
  [{ kind: "push", status: "Not Pushing" }, "Not Pushing", "bad"],
  [{ kind: "battery", status: "Low" }, "Low", "bad"],
  [{ kind: "battery", status: "Ok" }, "Ok", "warn"],
  [{ kind: "battery", status: "Good" }, "Good", "ok"],
];

describe("badgeFor", () => {
  it.each(CASES)("shows %o as %s in tone %s", (badge, label, tone) => {
    expect(badgeFor(badge.kind, badge.status)).toEqual({ label, tone });
  });

  it("covers every status of every kind in the table above", () => {
    const kinds: BadgeKind[] = ["shipping", "billing", "push", "battery"];
    const listed = kinds.flatMap((kind) => badgesOfKind(kind).map((b) => `${b.kind}:${b.status}`));
    expect(listed.sort()).toEqual(CASES.map(([b]) => `${b.kind}:${b.status}`).sort());
  });

  it("has a shipping badge for each shipping status code of the spec", () => {
    const codes = Object.keys(ShippingStatusCode).map((name) => name.toLowerCase());
    expect(
      badgesOfKind("shipping")
        .map((b) => b.status)
        .sort(),
    ).toEqual(codes.sort());
  });

  it("takes the domain's own results: billing, public shipping, push and battery", () => {
    expect(badgeFor("billing", billingStatus("Pending")).label).toBe("Paid");
    const order = { shippingStatus: "Shipped", shippingTimestamp: epochSeconds(1), shipments: [] };
    expect(badgeFor("shipping", publicShippingStatus(order)).label).toBe("Shipped");
    expect(badgeFor("push", pushStatusLabel(0)).label).toBe("Not Pushing");
    expect(badgeFor("battery", batteryBand(30))).toEqual({ label: "Low", tone: "bad" });
  });

  it("never gives two looks the same text within a kind, except Hold shown as Received", () => {
    const labels = badgesOfKind("shipping").map((b) => badgeOf(b).label);
    expect(labels.filter((l) => l === "Received")).toHaveLength(2);
    expect(new Set(labels).size).toBe(labels.length - 1);
  });
});

describe("badgeOf", () => {
  it.each(CASES)("reads the pair %o like badgeFor", (badge, label, tone) => {
    expect(badgeOf(badge)).toEqual({ label, tone });
  });
});
