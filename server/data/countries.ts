import { asc, ne } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { countries } from "../db/schema/index.ts";
import type { Country } from "../../src/api/records.ts";

/** The countries an address may name, by name; the crmId 0 placeholder is left out (spec section 5). */
export function countryList(db: Db): Promise<Country[]> {
  return db
    .select()
    .from(countries)
    .where(ne(countries.crmId, 0))
    .orderBy(asc(countries.name), asc(countries.id));
}
