import { describe, expect, test } from "vitest";
import { addressLines } from "../../src/domain/addressLines.ts";

describe("an address's label lines", () => {
  test("writes company, contact, attention, street, city line, country and phone in order", () => {
    const lines = addressLines(
      {
        companyName: "Acme Labs",
        contactName: "Dana Whitfield",
        attention: "Receiving",
        line1: "100 Research Park Dr",
        line2: "Building 2",
        city: "Boston",
        state: "MA",
        zipCode: "02110",
        phoneNumber: "617-555-0142",
      },
      "United States",
    );
    expect(lines).toEqual([
      "Acme Labs",
      "Dana Whitfield",
      "Attn: Receiving",
      "100 Research Park Dr",
      "Building 2",
      "Boston, MA 02110",
      "United States",
      "617-555-0142",
    ]);
  });

  test("leaves out empty parts and joins what is left of the city line", () => {
    expect(addressLines({ line1: "12 Harbour St", city: "", state: "ON", zipCode: null }, null)).toEqual([
      "12 Harbour St",
      "ON",
    ]);
  });

  test("has no lines without an address", () => {
    expect(addressLines(null, "Canada")).toEqual([]);
  });
});
