import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";
import { orDefault } from "./fields.ts";

/**
 * Quote and order lookup by number and contact name. A miss of either answers 404 'Record
 * not found.' alike; the caller is rate limited like sign-in.
 */
export const searchOrdersAndQuotes = endpoint({
  method: "get",
  path: "/api/v1/orders-and-quotes/public/search",
  host: "api",
  body: "query",
  request: z.object({
    id: orDefault(z.string().check(z.trim(), z.maxLength(100, "The number is too long.")), ""),
    contact: orDefault(z.string().check(z.trim(), z.maxLength(200, "The name is too long.")), ""),
  }),
  response: z.object({
    /** ORD-{id}-{validationId} for an order, the quote's token for a quote (never contains 'ord'). */
    resourceUri: z.string(),
  }),
  summary: "Finds a quote or an order by its number and the contact name on it.",
});
