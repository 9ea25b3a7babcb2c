import type { BatteryBand, pushStatusLabel } from "./device.ts";
import type { ShippingStatusCode } from "./enums.ts";
import type { BillingStatus } from "./order.ts";

/** The few looks a status can take; the text always carries the meaning, the tone only echoes it. */
export type Tone = "ok" | "warn" | "bad" | "info" | "muted";
export interface Badge {
  label: string;
  tone: Tone;
}

/** Shipping statusType: the spec's shipping status codes, named as the pages name them. */
export type ShippingStatusType = Lowercase<keyof typeof ShippingStatusCode>;
export type PushStatus = ReturnType<typeof pushStatusLabel>;

/** Every kind of status a badge shows, with the values it can take. */
export interface BadgeStatuses {
  shipping: ShippingStatusType;
  billing: BillingStatus;
  push: PushStatus;
  battery: BatteryBand;
}
export type BadgeKind = keyof BadgeStatuses;

// Records, not lookups with a default: a new status anywhere breaks the build here.
const BADGES: { [K in BadgeKind]: Record<BadgeStatuses[K], Badge> } = {
  shipping: {
    received: { label: "Received", tone: "info" },
    shipped: { label: "Shipped", tone: "info" },
    delivered: { label: "Delivered", tone: "ok" },
    partial: { label: "Partial", tone: "warn" },
    cancelled: { label: "Cancelled", tone: "bad" },
    // Spec section 4: "Hold looks like Received".
    hold: { label: "Received", tone: "info" },
    // Spec section 4: "Partial, Cancelled and Complete are single badges".
    completed: { label: "Complete", tone: "ok" },
    unknown: { label: "Unknown", tone: "muted" },
  },
  billing: {
    Open: { label: "Open", tone: "warn" },
    Paid: { label: "Paid", tone: "ok" },
    Cancelled: { label: "Cancelled", tone: "bad" },
    Refunded: { label: "Refunded", tone: "info" },
    Closed: { label: "Closed", tone: "muted" },
  },
  push: {
    Pushing: { label: "Pushing", tone: "ok" },
    "Not Pushing": { label: "Not Pushing", tone: "bad" },
  },
  battery: {
    Low: { label: "Low", tone: "bad" },
    Ok: { label: "Ok", tone: "warn" },
    Good: { label: "Good", tone: "ok" },
  },
};

/** The label and tone of one status of one kind, e.g. badgeFor("billing", "Paid"). */
export function badgeFor<K extends BadgeKind>(kind: K, status: BadgeStatuses[K]): Badge {
  return BADGES[kind][status];
}

/** The same for a {kind, status} pair, as components receive it. */
export function badgeOf(badge: BadgeOf): Badge {
  // A switch ties each kind to its own statuses, which a plain index through the union cannot.
  switch (badge.kind) {
    case "shipping":
      return BADGES.shipping[badge.status];
    case "billing":
      return BADGES.billing[badge.status];
    case "push":
      return BADGES.push[badge.status];
    case "battery":
      return BADGES.battery[badge.status];
  }
}

/** Every {kind, status} pair of a kind, in table order: for tests and the UI kit page. */
export function badgesOfKind(kind: BadgeKind): BadgeOf[] {
  // The keys come from the kind's own record, so each pair is a valid BadgeOf.
  return Object.keys(BADGES[kind]).map((status) => ({ kind, status }) as BadgeOf);
}

/** One badge's props as a union over kinds, so a status of the wrong kind is a type error. */
export type BadgeOf = { [K in BadgeKind]: { kind: K; status: BadgeStatuses[K] } }[BadgeKind];
