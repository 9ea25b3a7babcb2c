import { atom } from "nanostores";
import { getCountryList } from "../api/countries.ts";
import type { Address, Country } from "../api/records.ts";
import { call } from "./http.ts";

/** The countries addresses may name (GET /order/country-list); empty until loaded or when it failed. */
export const $countries = atom<Country[]>([]);

/** The request under way, shared by every caller until it ends (the app and the page both ask). */
let loading: Promise<void> | null = null;

/**
 * Loads the list once per page. A failure leaves it empty: addresses then show the country
 * name they carry, so the page does not fail for it (a later call tries again).
 */
export function loadCountries(): Promise<void> {
  if ($countries.get().length) return Promise.resolve();
  loading ??= call(getCountryList)
    .then(
      (answer) => $countries.set(answer.countryList),
      () => $countries.set([]),
    )
    .finally(() => {
      loading = null;
    });
  return loading;
}

/** An address's country as the list names it (by id), else the name the address carries. */
export function countryName(address: Pick<Address, "country">, countries: readonly Country[]): string {
  const country = address.country;
  if (!country) return "";
  return countries.find((c) => c.id === country.id)?.name ?? country.name;
}
