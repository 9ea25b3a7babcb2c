import type { Cents, EpochSeconds } from "./brand.ts";
import { formatMoney } from "./money.ts";

export type TimelineKind = "quote" | "order" | "payment" | "shipped" | "carrier" | "delivered";

/** One moment of an order's life, as the public order page lists it (oldest first). */
export interface TimelineEvent {
  at: EpochSeconds;
  kind: TimelineKind;
  text: string;
}

export interface TimelineInput {
  quote: { number: string; createdAt: EpochSeconds } | null;
  order: { number: string; createdAt: EpochSeconds };
  currency: number;
  payments: readonly { at: EpochSeconds; amount: Cents; method: string; cardLast4: string | null }[];
  shipments: readonly {
    trackingNumber: string;
    carrier: string;
    shippedAt: EpochSeconds | null;
    isDelivered: boolean;
    activity: readonly { at: EpochSeconds; description: string; location: string }[];
  }[];
}

/**
 * The order's life in one list: quote created, order placed, payments, each shipment
 * shipped, its carrier events and its delivery. The last carrier event of a delivered
 * shipment is its delivery.
 */
export function orderTimeline(input: TimelineInput): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  if (input.quote)
    events.push({ at: input.quote.createdAt, kind: "quote", text: `Quote ${input.quote.number} created` });
  events.push({ at: input.order.createdAt, kind: "order", text: `Order ${input.order.number} placed` });
  for (const p of input.payments) {
    const how = p.cardLast4 ? `card ending ${p.cardLast4}` : p.method;
    events.push({
      at: p.at,
      kind: "payment",
      text: `Payment of ${formatMoney(p.amount, input.currency)} (${how})`,
    });
  }
  for (const s of input.shipments) {
    if (s.shippedAt)
      events.push({
        at: s.shippedAt,
        kind: "shipped",
        text: `Shipped by ${s.carrier}, tracking ${s.trackingNumber}`,
      });
    const activity = [...s.activity].sort((a, b) => a.at - b.at);
    activity.forEach((a, i) => {
      const delivered = s.isDelivered && i === activity.length - 1;
      const where = a.location ? ` (${a.location})` : "";
      events.push({
        at: a.at,
        kind: delivered ? "delivered" : "carrier",
        text: delivered ? `Delivered${where}, tracking ${s.trackingNumber}` : `${a.description}${where}`,
      });
    });
  }
  // Stable: events at the same second keep the order above (an order before its payment).
  return events
    .map((e, i) => [e, i] as const)
    .sort((a, b) => a[0].at - b[0].at || a[1] - b[1])
    .map(([e]) => e);
}
