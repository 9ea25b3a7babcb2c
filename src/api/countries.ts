import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";
import { CountrySchema } from "./records.ts";

export const getCountryList = endpoint({
  method: "get",
  path: "/order/country-list",
  host: "web",
  body: "none",
  request: undefined,
  response: z.object({ countryList: z.array(CountrySchema) }),
  summary: "The countries addresses may name (the crmId 0 entry left out).",
});
