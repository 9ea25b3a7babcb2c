import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";
import { epoch } from "./records.ts";

/** A shipment (spec section 3, Shipment). */
export const ShipmentSchema = z.object({
  id: z.int(),
  /** The spec's shippingDate, which its pages show as shippedAt (the same epoch seconds). */
  shippingDate: z.nullable(epoch),
  shippedAt: z.nullable(epoch),
  carrier: z.string(),
  shipMethod: z.string(),
  trackingNumber: z.string(),
  shipmentItems: z.array(z.object({ productNumber: z.string(), description: z.string(), quantity: z.int() })),
  /** Where it goes. */
  address: z.object({
    city: z.nullable(z.string()),
    state: z.nullable(z.string()),
    country: z.nullable(z.string()),
  }),
  /** Where it ships from. */
  distributionOrigin: z.object({
    shippingAddress: z.object({
      city: z.nullable(z.string()),
      state: z.nullable(z.string()),
      countryCode: z.nullable(z.string()),
    }),
  }),
  isDelivered: z.boolean(),
});
export type Shipment = z.infer<typeof ShipmentSchema>;

/** `ref` as in GET /api/v1/orders/public/{ref}. */
export const getShipmentList = endpoint({
  method: "get",
  path: "/api/v1/shipments/shipment-list/:ref",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ shipmentList: z.array(ShipmentSchema) }),
  summary: "An order's shipments.",
});

export const TrackingActivitySchema = z.object({
  at: epoch,
  locationDescription: z.string(),
  /** The carrier's local date and time of the event, 'MMM DD, YYYY' and 'h:mm A'. */
  date: z.string(),
  time: z.string(),
  description: z.string(),
  signedForByName: z.nullable(z.string()),
});

export const getTrackingDetails = endpoint({
  method: "get",
  path: "/shipments/tracking-details/:trackingNumber",
  host: "account",
  body: "none",
  request: undefined,
  response: z.object({
    trackingDetails: z.object({
      method: z.union([z.string(), z.array(z.string())]),
      activity: z.array(TrackingActivitySchema),
    }),
  }),
  summary: "A shipment's carrier activity, newest first.",
});
