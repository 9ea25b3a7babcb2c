import type { Db } from "../db/client.ts";
import { countries, shippingOptions, taxRates } from "../db/schema/index.ts";
import { cents } from "../../src/domain/brand.ts";

/** Countries (US id 1, Canada id 4, and a crmId 0 placeholder that lists exclude), rates and taxes. */
export async function seedReference(db: Db) {
  await db.insert(countries).values([
    { id: 1, crmId: 1001, code: "US", name: "United States", abbreviation: "USA" },
    { id: 2, crmId: 1002, code: "MX", name: "Mexico", abbreviation: "MEX" },
    { id: 3, crmId: 1003, code: "GB", name: "United Kingdom", abbreviation: "GBR" },
    { id: 4, crmId: 1004, code: "CA", name: "Canada", abbreviation: "CAN" },
    { id: 5, crmId: 1005, code: "DE", name: "Germany", abbreviation: "DEU" },
    { id: 6, crmId: 1006, code: "FR", name: "France", abbreviation: "FRA" },
    { id: 7, crmId: 1007, code: "AU", name: "Australia", abbreviation: "AUS" },
    { id: 8, crmId: 1008, code: "JP", name: "Japan", abbreviation: "JPN" },
    { id: 99, crmId: 0, code: "ZZ", name: "Unassigned", abbreviation: "ZZZ" },
  ]);
  await db.insert(shippingOptions).values([
    {
      serviceCode: "UPS-GND",
      name: "UPS Ground",
      carrierName: "UPS",
      serviceName: "Ground",
      basePrice: cents(1495),
      perItemPrice: cents(250),
    },
    {
      serviceCode: "UPS-2DA",
      name: "UPS 2nd Day Air",
      carrierName: "UPS",
      serviceName: "2nd Day Air",
      basePrice: cents(2995),
      perItemPrice: cents(400),
    },
    {
      serviceCode: "UPS-NDA",
      name: "UPS Next Day Air",
      carrierName: "UPS",
      serviceName: "Next Day Air",
      basePrice: cents(5495),
      perItemPrice: cents(600),
    },
    {
      serviceCode: "FDX-INTL",
      name: "FedEx International Priority",
      carrierName: "FedEx",
      serviceName: "International Priority",
      basePrice: cents(8995),
      perItemPrice: cents(900),
    },
    {
      serviceCode: "USPS-PRI",
      name: "USPS Priority Mail",
      carrierName: "USPS",
      serviceName: "Priority Mail",
      basePrice: cents(995),
      perItemPrice: cents(150),
      isDisabled: true,
    },
  ]);
  await db.insert(taxRates).values([
    { countryCode: "US", region: "*", rateBasisPoints: 0 },
    { countryCode: "US", region: "MA", rateBasisPoints: 625 },
    { countryCode: "US", region: "CA", rateBasisPoints: 725 },
    { countryCode: "US", region: "NY", rateBasisPoints: 400 },
    { countryCode: "US", region: "IL", rateBasisPoints: 625 },
    { countryCode: "CA", region: "*", rateBasisPoints: 500 },
    { countryCode: "CA", region: "ON", rateBasisPoints: 1300 },
    { countryCode: "DE", region: "*", rateBasisPoints: 1900 },
    { countryCode: "FR", region: "*", rateBasisPoints: 2000 },
    { countryCode: "GB", region: "*", rateBasisPoints: 2000 },
  ]);
}
