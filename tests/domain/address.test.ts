import { describe, expect, it } from "vitest";
import {
  addressOf,
  CANADA_REGIONS,
  draftOf,
  editDraft,
  EMPTY_DRAFT,
  regionsOf,
  sameAddress,
  US_REGIONS,
  type AddressDraft,
} from "../../src/domain/address.ts";

const BOSTON: AddressDraft = {
  companyName: "Acme Labs",
  contactName: "Dana Whitfield",
  line1: "100 Research Park Dr",
  line2: "",
  city: "Boston",
  state: "MA",
  zipCode: "02110",
  countryId: 1,
};

describe("the address dialog's rules", () => {
  it.each([
    [1, US_REGIONS],
    [4, CANADA_REGIONS],
  ])("offers a State dropdown for country %i", (countryId, regions) => {
    expect(regionsOf(countryId)).toBe(regions);
  });

  it.each([2, 3, 5, null])("leaves State free text for country %s", (countryId) => {
    expect(regionsOf(countryId)).toBeNull();
  });

  it("lists the US states, DC and the territories, and Canada's 13 provinces and territories", () => {
    expect(US_REGIONS).toHaveLength(57);
    expect(US_REGIONS.map(([code]) => code)).toEqual(expect.arrayContaining(["MA", "DC", "PR", "GU"]));
    expect(CANADA_REGIONS).toHaveLength(13);
    expect(CANADA_REGIONS.map(([code]) => code)).toContain("ON");
  });

  it("clears state and city when the country changes", () => {
    expect(editDraft(BOSTON, { countryId: 4 })).toEqual({ ...BOSTON, countryId: 4, state: "", city: "" });
  });

  it("keeps state and city when the same country is chosen again or another field changes", () => {
    expect(editDraft(BOSTON, { countryId: 1 })).toEqual(BOSTON);
    expect(editDraft(BOSTON, { line1: "1 New Dock Rd" })).toEqual({ ...BOSTON, line1: "1 New Dock Rd" });
  });

  it("counts a change only when a value differs beyond spaces at its ends", () => {
    expect(sameAddress(BOSTON, { ...BOSTON, city: " Boston " })).toBe(true);
    expect(sameAddress(BOSTON, { ...BOSTON, zipCode: "02111" })).toBe(false);
    expect(sameAddress(BOSTON, { ...BOSTON, countryId: 4 })).toBe(false);
  });

  it("reads a stored address into the form, missing parts as empty, and no address as an empty form", () => {
    const stored = {
      companyName: null,
      contactName: "Dana",
      line1: "1 Main St",
      line2: null,
      city: "Boston",
      state: "MA",
      zipCode: "02110",
      country: { id: 1 },
    };
    expect(draftOf(stored)).toEqual({
      ...EMPTY_DRAFT,
      contactName: "Dana",
      line1: "1 Main St",
      city: "Boston",
      state: "MA",
      zipCode: "02110",
      countryId: 1,
    });
    expect(draftOf(null)).toEqual(EMPTY_DRAFT);
  });

  it("shows a draft with its country named from the list, else from the address it came from", () => {
    const countries = [{ id: 4, name: "Canada", code: "CA" }];
    const from = { country: { id: 1, name: "United States", code: "US" } };
    expect(addressOf({ ...BOSTON, countryId: 4 }, countries, from).country).toEqual(countries[0]);
    expect(addressOf(BOSTON, [], from)).toMatchObject({ country: from.country, line2: null, city: "Boston" });
    expect(addressOf({ ...BOSTON, countryId: 9 }, [], from).country).toBeNull();
  });

  it("carries the attention line and phone over while the recipient stays the same", () => {
    const from = {
      companyName: "Acme Labs",
      contactName: "Dana",
      attention: "Receiving",
      phoneNumber: "617-555-0142",
      country: null,
    };
    const same = { ...BOSTON, companyName: " acme labs ", contactName: "Dana", line1: "1 New Dock Rd" };
    expect(addressOf(same, [], from)).toMatchObject({ attention: "Receiving", phoneNumber: "617-555-0142" });
    const other = { ...same, contactName: "Sam" };
    expect(addressOf(other, [], from)).toMatchObject({ attention: null, phoneNumber: null });
  });
});
