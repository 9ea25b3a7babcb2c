import { Hono } from "hono";
import { countryList } from "../data/countries.ts";
import type { Deps } from "../deps.ts";
import { guard } from "../http/access.ts";
import { reply } from "../http/reply.ts";
import { getCountryList } from "../../src/api/countries.ts";

/** The country list of the pay-as-guest address views. */
export function countryRoutes(deps: Deps) {
  return new Hono().get(getCountryList.path, guard(getCountryList, deps), async (c) =>
    reply(c, getCountryList, { countryList: await countryList(deps.db) }),
  );
}
