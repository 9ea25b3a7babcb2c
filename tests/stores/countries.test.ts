import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getCountryList } from "../../src/api/countries.ts";
import { $countries, loadCountries } from "../../src/stores/countries.ts";
import { fakeApi, fakeNavigation } from "./fakeApi.ts";

const CANADA = { id: 4, crmId: 1004, code: "CA", name: "Canada", abbreviation: "CAN" };

describe("the country list", () => {
  let api: ReturnType<typeof fakeApi>;
  beforeEach(() => {
    $countries.set([]);
    api = fakeApi();
    fakeNavigation("/s/quotes/details/QUO-1001");
  });
  afterEach(() => vi.unstubAllGlobals());

  it("asks once when the app and the page ask at the same time", async () => {
    api.on(getCountryList, { countryList: [CANADA] });
    await Promise.all([loadCountries(), loadCountries()]);
    expect($countries.get()).toEqual([CANADA]);
    expect(api.calls(getCountryList)).toHaveLength(1);
    await loadCountries();
    expect(api.calls(getCountryList)).toHaveLength(1);
  });

  it("stays empty after a failure, and a later call asks again", async () => {
    api.on(getCountryList, { status: 500, errors: [{ field: null, message: "Internal error." }] });
    await loadCountries();
    expect($countries.get()).toEqual([]);
    api.on(getCountryList, { countryList: [CANADA] });
    await loadCountries();
    expect($countries.get()).toEqual([CANADA]);
    expect(api.calls(getCountryList)).toHaveLength(2);
  });
});
