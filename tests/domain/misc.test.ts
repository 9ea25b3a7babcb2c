import { describe, expect, it } from "vitest";
import {
  CARD_EXPIRY_MONTHS,
  LOCATION_REQUIRED,
  TAG_NAME_ERROR,
  cardExpiryYears,
  filterTagsByPrefix,
  formatChannelKey,
  groupKeyOf,
  locationUpdate,
  publicRecordLinks,
  parseChannelKey,
  tagNameError,
  tagNameTaken,
  titleToSave,
  twoDigitYear,
} from "../../src/domain/index.ts";
import { numberOnlyRecord } from "../../src/domain/numberOnly.ts";

describe("channel keys", () => {
  it("parses and formats a key with a channel index", () => {
    const key = parseChannelKey("00:11:22:33:44:55_A1B2_1200_0_1_2");
    expect(key).toEqual({
      deviceAddress: "00:11:22:33:44:55",
      sensorAddress: "A1B2",
      groupType: 1200,
      groupIndex: 0,
      channelType: 1,
      channelIndex: 2,
    });
    expect(formatChannelKey(key!)).toBe("00:11:22:33:44:55_A1B2_1200_0_1_2");
    expect(groupKeyOf(key!)).toBe("00:11:22:33:44:55_A1B2_1200_0");
  });

  it("accepts a key without a channel index", () => {
    expect(parseChannelKey("dev_sen_1300_1_4")?.channelIndex).toBeNull();
  });

  it.each(["", "a_b_c", "a_b_x_0_1", "a_b_1_2_3_4_5", "a b_c_1_2_3"])("refuses %j", (text) => {
    expect(parseChannelKey(text)).toBeNull();
  });
});

describe("card expiry", () => {
  it("offers the current year and 29 more", () => {
    const years = cardExpiryYears(2026);
    expect(years).toHaveLength(30);
    expect(years[0]).toBe(2026);
    expect(years[29]).toBe(2055);
  });

  it("offers months 01 to 12 and sends two-digit years", () => {
    expect(CARD_EXPIRY_MONTHS[0]).toBe("01");
    expect(CARD_EXPIRY_MONTHS).toHaveLength(12);
    expect(twoDigitYear(2031)).toBe("31");
    expect(twoDigitYear(2100)).toBe("00");
  });
});

describe("tags", () => {
  it("needs 1 to 100 characters", () => {
    expect(tagNameError("")).toBe(TAG_NAME_ERROR);
    expect(tagNameError("   ")).toBe("Tag must be between 1 and 100 characters long.");
    expect(tagNameError("x".repeat(100))).toBeNull();
    expect(tagNameError("x".repeat(101))).toBe(TAG_NAME_ERROR);
  });

  it("finds an existing name case-insensitively and filters by prefix", () => {
    const tags = [{ name: "Freezer" }, { name: "Lab" }, { name: "freezer room" }];
    expect(tagNameTaken("FREEZER", tags)).toBe(true);
    expect(tagNameTaken("Office", tags)).toBe(false);
    expect(filterTagsByPrefix(tags, "fre").map((t) => t.name)).toEqual(["Freezer", "freezer room"]);
    expect(filterTagsByPrefix(tags, "ab")).toEqual([]);
  });
});

describe("location, titles and roles", () => {
  it("needs location text or both coordinates", () => {
    expect(locationUpdate({ location: "  " })).toEqual({ ok: false, message: LOCATION_REQUIRED });
    expect(locationUpdate({ lat: 1 })).toEqual({ ok: false, message: LOCATION_REQUIRED });
    expect(locationUpdate({ location: " Lab 2 " })).toEqual({
      ok: true,
      location: "Lab 2",
      lat: null,
      lng: null,
    });
    expect(locationUpdate({ lat: 0, lng: 0 })).toEqual({ ok: true, location: null, lat: 0, lng: 0 });
  });

  it("saves a title only when trimmed, non-empty and changed", () => {
    expect(titleToSave("  New  ", "Old")).toBe("New");
    expect(titleToSave("   ", "Old")).toBeNull();
    expect(titleToSave("Old ", "Old")).toBeNull();
  });
});

describe("public record links", () => {
  it("derives the referrer and signed-in page of a public order", () => {
    expect(publicRecordLinks("order", "/p/order/ORD-5003-abc_DEF")).toEqual({
      referrer: "ord-5003",
      signedInPath: "/s/order/details/5003",
    });
  });

  it("derives the referrer and signed-in page of a public quote", () => {
    expect(publicRecordLinks("quote", "/p/quote/QUO-1001/")).toEqual({
      referrer: "quo-1001",
      signedInPath: "/s/quotes/details/QUO-1001",
    });
  });

  it("gives nothing for an address that is not a record", () => {
    expect(publicRecordLinks("order", "/p/order/nonsense")).toBeNull();
  });

  it.each([
    ["quote", "QUO-1001", "QUO-1001"],
    ["quote", "1001", "QUO-1001"],
    ["quote", "quo 1001", "QUO-1001"],
    ["order", "ORD-5001", "ORD-5001"],
    ["order", "5001", "ORD-5001"],
    ["order", "QUO-1001", null],
    ["quote", "ORD-5001", null],
    ["order", "ORD-5001-k3y", null],
    ["quote", "9f86d081884c7d659a2feaa0c55ad015", null],
  ] as const)("reads the %s pay-as-guest id %j as the number alone: %j", (kind, id, number) => {
    expect(numberOnlyRecord(kind, id)).toBe(number);
  });
});
