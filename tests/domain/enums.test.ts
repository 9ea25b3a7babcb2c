import { describe, expect, it } from "vitest";
import {
  CountryId,
  Currency,
  EntityType,
  PaymentTypeCode,
  RequestVerb,
  ShippingStatusCode,
} from "../../src/domain/enums.ts";

describe("the spec's enumerations (section 3)", () => {
  it.each([
    ["Currency", Currency, { USD: 1, EUR: 2 }],
    [
      "EntityType",
      EntityType,
      {
        ALERT: 1,
        SUBSCRIPTION: 2,
        DEVICE: 3,
        DATAGROUP: 4,
        USER: 5,
        ACCOUNT_MESSAGE: 6,
        ALERT_COMMENT: 7,
        THRESHOLD_RANGE: 8,
        THRESHOLD_RANGE_GROUP: 9,
        USER_ALERT_DATA: 10,
        USER_ASSIGNMENT: 11,
        PENDING_USER_ASSIGNMENT: 12,
      },
    ],
    ["RequestVerb", RequestVerb, { CREATE: 1, READ: 2, UPDATE: 3, DELETE: 4, BACKGROUND_READ: 5 }],
    [
      "ShippingStatusCode",
      ShippingStatusCode,
      { RECEIVED: 1, SHIPPED: 2, DELIVERED: 3, PARTIAL: 4, CANCELLED: 5, UNKNOWN: 6, COMPLETED: 7, HOLD: 8 },
    ],
    [
      "PaymentTypeCode",
      PaymentTypeCode,
      {
        PAID: 1,
        NOT_YET_INVOICED: 2,
        PAST_DUE: 3,
        DUE: 4,
        CANCELLED: 5,
        PART_PAID: 6,
        REFUNDED: 7,
        CLOSED: 8,
        OPEN: 10,
      },
    ],
    ["CountryId", CountryId, { US: 1, CANADA: 4 }],
  ])("keeps %s as the spec numbers it", (_, actual, expected) => {
    expect(actual).toEqual(expected);
  });
});
