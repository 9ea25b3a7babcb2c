import { describe, expect, it } from "vitest";
import type { Cents, EpochSeconds } from "../../src/domain/brand.ts";
import { orderTimeline, type TimelineInput } from "../../src/domain/timeline.ts";

const s = (n: number) => n as EpochSeconds;
const base: TimelineInput = {
  quote: { number: "QUO-1001", createdAt: s(100) },
  order: { number: "ORD-5003", createdAt: s(200) },
  currency: 1,
  payments: [{ at: s(200), amount: 12_345 as Cents, method: "Online - CC", cardLast4: "4242" }],
  shipments: [],
};

describe("an order's timeline", () => {
  it.each<[string, Partial<TimelineInput>, [number, string, string][]]>([
    [
      "a quote, the order and its card payment at the same second, in that order",
      {},
      [
        [100, "quote", "Quote QUO-1001 created"],
        [200, "order", "Order ORD-5003 placed"],
        [200, "payment", "Payment of $123.45 (card ending 4242)"],
      ],
    ],
    [
      "no quote, a payment on terms in euros",
      {
        quote: null,
        currency: 2,
        payments: [{ at: s(300), amount: 500 as Cents, method: "Purchase Order", cardLast4: null }],
      },
      [
        [200, "order", "Order ORD-5003 placed"],
        [300, "payment", "Payment of €5.00 (Purchase Order)"],
      ],
    ],
    [
      "a delivered shipment: its last carrier event is the delivery, events sorted by time",
      {
        quote: null,
        payments: [],
        shipments: [
          {
            trackingNumber: "1Z9",
            carrier: "UPS",
            shippedAt: s(400),
            isDelivered: true,
            activity: [
              { at: s(600), description: "Delivered", location: "Boston, MA" },
              { at: s(500), description: "In transit", location: "" },
            ],
          },
        ],
      },
      [
        [200, "order", "Order ORD-5003 placed"],
        [400, "shipped", "Shipped by UPS, tracking 1Z9"],
        [500, "carrier", "In transit"],
        [600, "delivered", "Delivered (Boston, MA), tracking 1Z9"],
      ],
    ],
  ])("lists %s", (_, over, expected) => {
    const events = orderTimeline({ ...base, ...over });
    expect(events.map((e) => [e.at, e.kind, e.text])).toEqual(expected);
  });
});
