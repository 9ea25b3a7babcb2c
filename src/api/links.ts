import * as z from "zod/mini";
import { DeviceListItemSchema } from "./devices.ts";
import { endpoint } from "./endpoint.ts";

/** A link (spec: /links/{linkId}) and the devices of the active subscription connected through it. */
export const getLink = endpoint({
  method: "get",
  path: "/api/v1/links/:linkId",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({
    link: z.object({ id: z.int(), name: z.string() }),
    deviceList: z.array(DeviceListItemSchema),
  }),
  summary: "A link of the active subscription and the devices connected through it.",
});
