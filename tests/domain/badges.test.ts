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

const CASES: (BadgeOf & { label: string; tone: Tone })[] = [
  { kind: "shipping", status: "received", label: "Received", tone: "info" },
  { kind: "shipping", status: "shipped", label: "Shipped", tone: "info" },
  { kind: "shipping", status: "delivered", label: "Delivered", tone: "ok" },
  { kind: "shipping", status: "partial", label: "Partial", tone: "warn" },
  { kind: "shipping", status: "cancelled", label: "Cancelled", tone: "bad" },
  // Spec section 4: "Hold looks like Received".
  { kind: "shipping", status: "hold", label: "Received", tone: "info" },
  // Spec section 4: "Partial, Cancelled and Complete are single badges".
  { kind: "shipping", status: "completed", label: "Complete", tone: "ok" },
  { kind: "shipping", status: "unknown", label: "Unknown", tone: "muted" },
  { kind: "billing", status: "Open", label: "Open", tone: "warn" },
  { kind: "billing", status: "Paid", label: "Paid", tone: "ok" },
  { kind: "billing", status: "Cancelled", label: "Cancelled", tone: "bad" },
  { kind: "billing", status: "Refunded", label: "Refunded", tone: "info" },
  { kind: "billing", status: "Closed", label: "Closed", tone: "muted" },
  { kind: "push", status: "Pushing", label: "Pushing", tone: "ok" },
  { kind: "push", status: "Not Pushing", label: "Not Pushing", tone: "bad" },
  { kind: "battery", status: "Low", label: "Low", tone: "bad" },
  { kind: "battery", status: "Ok", label: "Ok", tone: "warn" },
  { kind: "battery", status: "Good", label: "Good", tone: "ok" },
];

describe("badgeFor", () => {
  it.each(CASES)("shows $kind status $status as $label in tone $tone", ({ label, tone, ...badge }) => {
    expect(badgeFor(badge.kind, badge.status)).toEqual({ label, tone });
  });

  it("covers every status of every kind in the table above", () => {
    const kinds: BadgeKind[] = ["shipping", "billing", "push", "battery"];
    const listed = kinds.flatMap((kind) => badgesOfKind(kind).map((b) => `${b.kind}:${b.status}`));
    expect(listed.sort()).toEqual(CASES.map((b) => `${b.kind}:${b.status}`).sort());
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
  it.each(CASES)("reads the pair $kind and $status like badgeFor", ({ label, tone, ...badge }) => {
    expect(badgeOf(badge)).toEqual({ label, tone });
  });
});
