import { describe, expect, it } from "vitest";
import { ACCESS } from "../../server/http/access.ts";
import { openApiDocument } from "../../server/openapi.ts";
import { DEMO, demoHexToken, demoToken } from "../../server/seed/demo.ts";
import { ENDPOINTS } from "../../src/api/index.ts";
import { formatMoney } from "../../src/domain/money.ts";
import { browser, type Browser } from "./client.ts";
import { deviceId, signedIn } from "./deviceTestKit.ts";
import { useTestApp } from "./helpers.ts";

/*
 * The contract with a client written from the spec: every answer of section 7 carries the
 * fields section 3 lists, by the spec's names and with the spec's meaning. The lists below
 * are section 3's, field by field; the portal may add fields beside them, never drop one.
 */

const QUOTE = [
  "id",
  "quoteNumber",
  "status",
  "statusType",
  "createdAt",
  "expiresAt",
  "grandTotal",
  "grandTotalDisplay",
  "tax",
  "taxDisplay",
  "currency",
  "crmOrgId",
  "needsShipping",
  "shippingAddress",
  "billingAddress",
  "productSpecialist.name",
  "productSpecialist.phone",
  "productSpecialist.phoneExtension",
  "shippingCost",
  "shippingCostDisplay",
  "shippingCarrier",
  "shippingMethod",
  "shippingDetailsString",
  "quoteLineItemList",
];
const LINE_ITEM = ["productNumber", "description", "quantity", "discount", "listPrice", "currency"];
const ORDER = [
  "id",
  "createdAt",
  "orderNumber",
  "grandTotal",
  "shippingTimestamp",
  "shippingStatus",
  "poNumber",
  "paymentStatus",
  "paymentType",
  "shipmentList",
  "currency",
  "crmOrgId",
  "shippingAddress",
  "billingAddress",
  "tax",
  "shippingAmount",
  "orderLineItemList",
  "numItems",
  "paymentBalanceDue",
  "paymentBalanceDueDisplay",
  "shipMethod",
  "shipCarrier",
  "referrerCode",
];
const ADDRESS = [
  "companyName",
  "contactName",
  "attention",
  "line1",
  "line2",
  "city",
  "state",
  "zipCode",
  "country.id",
  "country.name",
  "country.code",
  "phoneNumber",
  "id",
];
const SHIPMENT = [
  "id",
  "shippingDate",
  "shippedAt",
  "carrier",
  "shipMethod",
  "trackingNumber",
  "shipmentItems",
  "address.city",
  "address.state",
  "address.country",
  "distributionOrigin.shippingAddress.city",
  "distributionOrigin.shippingAddress.state",
  "distributionOrigin.shippingAddress.countryCode",
  "isDelivered",
];
const TRACKING = ["method", "activity"];
const ACTIVITY = ["locationDescription", "date", "time", "description", "signedForByName"];
const SHIPPING_OPTION = [
  "serviceCode",
  "name",
  "displayPrice",
  "price",
  "serviceName",
  "carrierName",
  "isDisabled",
];
const DEVICE = [
  "id",
  "name",
  "location",
  "type",
  "deviceType",
  "tagList",
  "publicPageHash",
  "uptime",
  "pushStatus",
  "pushInterval",
  "isLinkConnected",
  "linkId",
  "linkName",
  "ethIp",
  "wlanIp",
  "wifiName",
  "isHttps",
  "httpPort",
  "macAddress",
  "serialnumber",
  "firmware",
  "warrantyEndDate",
  "lastMessageTimestamp",
  "deviceAssignmentStartDate",
  "isSuspended",
  "capacityJson",
  "geocode",
];
const SENSOR = ["macAddress", "channelKey", "channelGroups"];
const CHANNEL_GROUP = ["channelKey", "label", "lastReceived", "isHidden", "channels"];
const CHANNEL = ["channelKey", "value", "adjust", "conversion.type", "conversion.units"];
const SESSION = [
  "userId",
  "email",
  "firstName",
  "lastName",
  "timezone",
  "temperatureScale",
  "activeSubscriptionId",
  "userAssignmentList",
  "activeSubscription",
];
const SUBSCRIPTION = [
  "id",
  "name",
  "tier.name",
  "tier.limits",
  "tier.features",
  "limitMap",
  "role.id",
  "role.name",
  "role.displayName",
  "supportsRoles",
  "samlEnabled",
];
const STATS = [
  "userCount",
  "deviceCount",
  "alertCount",
  "reportCount",
  "connectorCount",
  "computedChannelCount",
  "legacyDeviceCount",
  "transferredDeviceCount",
  "archivedDeviceCount",
  "dataAgeLimitUnit",
  "dataAgeLimitValue",
];

type Json = Record<string, unknown>;

/** The paths of `fields` that `value` does not carry (null counts as carried: the spec's "none"). */
function missing(value: unknown, fields: readonly string[]): string[] {
  return fields.filter((path) => {
    let at: unknown = value;
    for (const key of path.split(".")) {
      if (typeof at !== "object" || at === null || !(key in at)) return true;
      at = (at as Json)[key];
    }
    return false;
  });
}

/** Each amount in currency units equal to its cents / 100, and displayed as section 9 says. */
function expectAmounts(record: Json, names: readonly string[]) {
  const currency = record["currency"] as number;
  const sign = currency === 2 ? "€" : "$";
  for (const name of names) {
    const cents = record[`${name}Cents`] as number;
    expect(Number.isInteger(cents), `${name}Cents`).toBe(true);
    expect(record[name], name).toBe(cents / 100);
    expect(record[`${name}Display`], `${name}Display`).toBe(formatMoney(cents as never, currency));
    expect(record[`${name}Display`], `${name}Display`).toMatch(
      new RegExp(`^-?\\${sign}\\d{1,3}(,\\d{3})*\\.\\d\\d$`),
    );
  }
}

/** The line items of a quote or order: every field, and their prices as the spec's numbers. */
function expectLineItems(items: Json[]) {
  expect(items.length).toBeGreaterThan(0);
  for (const item of items) {
    expect(missing(item, LINE_ITEM)).toEqual([]);
    expectAmounts(item, ["listPrice"]);
  }
}

const ORIGIN = "http://localhost";
const orderRef = (id: number) => `ORD-${id}-${demoToken(`order-${id}`)}`;

describe("the spec's fields in every answer", () => {
  const ctx = useTestApp({ seeded: true });
  const guest = () => browser(ctx.app, ORIGIN);
  const data = async (res: Response) => {
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; data: Json };
    expect(body.success).toBe(true);
    return body.data;
  };
  const as = (email: string) => signedIn(ctx, email);

  function expectQuote(quote: Json) {
    expect(missing(quote, QUOTE)).toEqual([]);
    expect(missing(quote["shippingAddress"], ADDRESS)).toEqual([]);
    expect(missing(quote["billingAddress"], ADDRESS)).toEqual([]);
    expectLineItems(quote["quoteLineItemList"] as Json[]);
    expectAmounts(quote, ["grandTotal", "tax", "shippingCost", "subtotal"]);
    expect(quote["statusType"]).toBe(quote["status"]);
    expect(quote["shippingDetailsString"]).toBe("UPS 2nd Day Air");
    expect(quote["crmOrgId"]).toBe(7000);
  }

  function expectOrder(order: Json) {
    expect(missing(order, ORDER)).toEqual([]);
    expect(missing(order["shippingAddress"], ADDRESS)).toEqual([]);
    expectLineItems(order["orderLineItemList"] as Json[]);
    expectAmounts(order, ["grandTotal", "tax", "shippingAmount", "paymentBalanceDue", "subtotal", "paid"]);
    const items = order["orderLineItemList"] as { quantity: number }[];
    expect(order["numItems"]).toBe(items.reduce((n, i) => n + i.quantity, 0));
    const shipments = order["shipmentList"] as Json[];
    expect(shipments.length).toBeGreaterThan(0);
    for (const s of shipments) expect(missing(s, SHIPMENT)).toEqual([]);
  }

  it("gives the public quote by its token link every Quote, Line item and Address field", async () => {
    const { quoteDetails } = await data(await guest().get(`/api/v1/quotes/public/${DEMO.openQuoteToken}`));
    expectQuote(quoteDetails as Json);
  });

  it("gives a quote opened by its number every Quote field by name, the token-only ones null", async () => {
    const { quoteDetails } = await data(await guest().get("/api/v1/quotes/public/QUO-1001"));
    expect(missing(quoteDetails, [...new Set(QUOTE.map((path) => path.split(".")[0]!))])).toEqual([]);
    expect(quoteDetails).toMatchObject({ grandTotal: null, quoteLineItemList: null, shippingAddress: null });
  });

  it("gives the signed-in quote every Quote, Line item and Address field", async () => {
    const admin = await as("admin@example.com");
    const { quoteDetails } = await data(await admin.get(`/api/v1/quotes/${DEMO.openQuoteId}`));
    expectQuote(quoteDetails as Json);
  });

  it("shows a euro quote's amounts with the euro sign", async () => {
    const { quoteDetails } = await data(
      await guest().get(`/api/v1/quotes/public/${demoHexToken("quote-1004")}`),
    );
    const quote = quoteDetails as Json;
    expect(quote["currency"]).toBe(2);
    expectAmounts(quote, ["grandTotal", "tax", "shippingCost"]);
    expect(quote["grandTotalDisplay"]).toMatch(/^€/);
  });

  it("gives the public order every Order, Line item, Address and Shipment field", async () => {
    const { orderDetails } = await data(await guest().get(`/api/v1/orders/public/${orderRef(DEMO.orderId)}`));
    expectOrder(orderDetails as Json);
  });

  it("gives the signed-in order every Order, Line item, Address and Shipment field", async () => {
    const admin = await as("admin@example.com");
    const { orderDetails } = await data(await admin.get(`/api/v1/orders/${DEMO.orderId}`));
    expectOrder(orderDetails as Json);
  });

  it("gives the public and signed-in shipment lists every Shipment field", async () => {
    const admin = await as("admin@example.com");
    const lists = [
      await data(await guest().get(`/api/v1/shipments/shipment-list/${orderRef(DEMO.orderId)}`)),
      await data(await admin.get(`/api/v1/shipments/shipment-list/order/${DEMO.orderId}`)),
    ];
    for (const { shipmentList } of lists) {
      const shipments = shipmentList as Json[];
      expect(shipments.length).toBeGreaterThan(0);
      for (const s of shipments) {
        expect(missing(s, SHIPMENT)).toEqual([]);
        expect(s["shippingDate"]).toBe(s["shippedAt"]);
        for (const item of s["shipmentItems"] as Json[]) expect(missing(item, ["quantity"])).toEqual([]);
      }
    }
  });

  it("gives tracking details their method and every activity field", async () => {
    const { orderDetails } = await data(await guest().get(`/api/v1/orders/public/${orderRef(DEMO.orderId)}`));
    const [shipment] = (orderDetails as { shipmentList: { trackingNumber: string }[] }).shipmentList;
    const { trackingDetails } = await data(
      await guest().get(`/shipments/tracking-details/${shipment!.trackingNumber}`),
    );
    expect(missing(trackingDetails, TRACKING)).toEqual([]);
    const activity = (trackingDetails as { activity: Json[] }).activity;
    expect(activity.length).toBeGreaterThan(0);
    for (const a of activity) expect(missing(a, ACTIVITY)).toEqual([]);
  });

  describe("the signed-in quote calls", () => {
    const BOSTON = { line1: "100 Research Park Dr", city: "Boston", state: "MA", zip: "02110" };
    const rates = async (b: Browser) =>
      (await data(
        await b.form("/quote/shipping-rates", {
          quoteId: String(DEMO.openQuoteId),
          contactName: "Dana Whitfield",
          companyName: "Acme Labs",
          ...BOSTON,
          countryCode: "US",
        }),
      )) as unknown as Json[];
    const taxFor = async (b: Browser, shippingAmount: number) =>
      data(
        await b.form("/quote/tax", {
          quoteId: String(DEMO.openQuoteId),
          shippingMethod: "Ground",
          shippingAmount: String(shippingAmount),
          line1: BOSTON.line1,
          line2: "",
          city: BOSTON.city,
          region: BOSTON.state,
          countryCode: "US",
          postalCode: BOSTON.zip,
        }),
      );

    it("lists shipping options with every Shipping option field, the price in currency units", async () => {
      const options = await rates(await as("admin@example.com"));
      expect(options.length).toBeGreaterThan(0);
      for (const option of options) {
        expect(missing(option, SHIPPING_OPTION)).toEqual([]);
        const cents = option["priceCents"] as number;
        expect(option["price"]).toBe(cents / 100);
        expect(option["displayPrice"]).toBe(formatMoney(cents as never, 1));
      }
    });

    it("answers /quote/tax with data.tax in currency units for an address given by country code", async () => {
      const answer = await taxFor(await as("admin@example.com"), 3245);
      expect(answer["taxCents"]).toBeGreaterThan(0);
      expectAmounts({ ...answer, currency: 1 }, ["tax"]);
    });

    it("places an order from the prefixed address fields alone, without the address objects", async () => {
      const admin = await as("admin@example.com");
      const ground = (await rates(admin)).find((o) => o["serviceName"] === "Ground")!;
      const { taxCents } = await taxFor(admin, ground["priceCents"] as number);
      const address = (prefix: string) => ({
        [`${prefix}CompanyName`]: "Acme Labs",
        [`${prefix}ContactName`]: "Dana Whitfield",
        [`${prefix}AddressLine1`]: BOSTON.line1,
        [`${prefix}AddressLine2`]: "",
        [`${prefix}City`]: BOSTON.city,
        [`${prefix}State`]: BOSTON.state,
        [`${prefix}Zip`]: BOSTON.zip,
        [`${prefix}CountryId`]: "1",
      });
      const placed = await data(
        await admin.form("/quote/order", {
          quoteId: String(DEMO.openQuoteId),
          email: "",
          contactPhone: "617-555-0142",
          purchaseOrderNumber: "",
          customerComment: "",
          cardNumber: "4242 4242 4242 4242",
          cardExpirationMonth: "12",
          cardExpirationYear: "40",
          cardCvv: "123",
          paymentMethod: "Online - CC",
          needsShipping: "true",
          shippingCarrier: "UPS",
          shippingMethod: "Ground",
          shippingPrice: String(ground["priceCents"]),
          tax: String(taxCents),
          ...address("shippingAddress"),
          ...address("billingAddress"),
          idempotencyKey: "spec-fields-order-0001",
        }),
      );
      expect(placed["orderId"]).toEqual(expect.any(Number));
      const { orderDetails } = await data(await admin.get(`/api/v1/orders/${placed["orderId"] as number}`));
      expect(orderDetails).toMatchObject({
        shippingAddress: { line1: BOSTON.line1, city: BOSTON.city, country: { id: 1 } },
        billingAddress: { line1: BOSTON.line1, city: BOSTON.city },
      });
    });
  });

  it("gives the signed-in and public device every Device, Sensor, channel group and channel field", async () => {
    const admin = await as("admin@example.com");
    const id = await deviceId(ctx.database.db, "Lab Base Station");
    const answers = [
      await data(await admin.get(`/api/v1/device-data/device-details/${id}`)),
      await data(await guest().get(`/api/v1/device-data/public/device-details/${DEMO.raDeviceHash}`)),
    ];
    for (const { device } of answers) {
      const { general, sensors } = device as { general: Json; sensors: Json[] };
      expect(missing(general, DEVICE)).toEqual([]);
      expect(general["linkName"]).toBe("Lab Network Link");
      expect(sensors.length).toBeGreaterThan(0);
      for (const sensor of sensors) {
        expect(missing(sensor, SENSOR)).toEqual([]);
        for (const group of sensor["channelGroups"] as Json[]) {
          expect(missing(group, CHANNEL_GROUP)).toEqual([]);
          for (const channel of group["channels"] as Json[]) expect(missing(channel, CHANNEL)).toEqual([]);
        }
      }
    }
  });

  it("gives the session every sessionInformation and subscription field, and the stats every count", async () => {
    const admin = await as("admin@example.com");
    const { sessionInformation } = await data(await admin.get("/api/v1/session"));
    expect(missing(sessionInformation, SESSION)).toEqual([]);
    const info = sessionInformation as { activeSubscription: Json; userAssignmentList: Json[] };
    expect(missing(info.activeSubscription, SUBSCRIPTION)).toEqual([]);
    expect(info.userAssignmentList.length).toBeGreaterThan(0);
    const stats = await data(await admin.get("/api/v1/session/subscription/stats"));
    expect(missing(stats, STATS)).toEqual([]);
  });

  it("shows the spec's names in the OpenAPI document's answers", () => {
    const doc = openApiDocument(ENDPOINTS, ACCESS, { sessionCookie: "sid" }) as {
      paths: Record<string, Record<string, Json>>;
    };
    const answer = (path: string, method = "get") => JSON.stringify(doc.paths[path]?.[method]?.["responses"]);
    const quote = answer("/api/v1/quotes/public/{id}");
    for (const field of [...QUOTE, ...LINE_ITEM].map((p) => p.split(".").at(-1)!))
      expect(quote, field).toContain(`"${field}"`);
    const order = answer("/api/v1/orders/public/{ref}");
    for (const field of [...ORDER, ...SHIPMENT].map((p) => p.split(".").at(-1)!))
      expect(order, field).toContain(`"${field}"`);
  });

  it("names a dropped field, so losing one fails", () => {
    expect(missing({ id: 1, country: { id: 1 } }, ["id", "country.code", "tax"])).toEqual([
      "country.code",
      "tax",
    ]);
    expect(missing({ tax: null }, ["tax"])).toEqual([]);
  });
});
