import * as accounts from "./accounts.ts";
import * as alarms from "./alarms.ts";
import * as alerts from "./alerts.ts";
import * as audit from "./audit.ts";
import * as chartMarks from "./chartMarks.ts";
import * as accountOrders from "./accountOrders.ts";
import * as config from "./config.ts";
import * as countries from "./countries.ts";
import * as deviceData from "./deviceData.ts";
import * as devices from "./devices.ts";
import type { Endpoint } from "./endpoint.ts";
import * as gateway from "./gateway.ts";
import * as grantAccess from "./grantAccess.ts";
import * as links from "./links.ts";
import * as lookup from "./lookup.ts";
import * as ops from "./ops.ts";
import * as orders from "./orders.ts";
import * as quotes from "./quotes.ts";
import * as quoteOrder from "./quoteOrder.ts";
import * as quotePdf from "./quotePdf.ts";
import * as readings from "./readings.ts";
import * as reportBuilder from "./reportBuilder.ts";
import * as reportCompliance from "./reportCompliance.ts";
import * as reportExports from "./reportExports.ts";
import * as reportSchedules from "./reportSchedules.ts";
import * as reports from "./reports.ts";
import * as session from "./session.ts";
import * as shipments from "./shipments.ts";
import * as tags from "./tags.ts";
import * as visitors from "./visitors.ts";

/** An endpoint with the contract module it lives in (its OpenAPI tag) and its export name. */
export interface ListedEndpoint {
  module: string;
  name: string;
  endpoint: Endpoint;
}

/** Every module of the contract; a new module is one line here. */
const MODULES: Record<string, Record<string, unknown>> = {
  accounts,
  alarms,
  alerts,
  audit,
  chartMarks,
  accountOrders,
  config,
  countries,
  deviceData,
  devices,
  gateway,
  grantAccess,
  links,
  lookup,
  ops,
  orders,
  quotes,
  quoteOrder,
  quotePdf,
  readings,
  reportBuilder,
  reportCompliance,
  reportExports,
  reportSchedules,
  reports,
  session,
  shipments,
  tags,
  visitors,
};

const isEndpoint = (value: unknown): value is Endpoint =>
  typeof value === "object" &&
  value !== null &&
  "method" in value &&
  "path" in value &&
  "body" in value &&
  "response" in value &&
  "summary" in value;

/**
 * Every endpoint of the API, found among each module's exports, so an endpoint added to a
 * module is listed (and in the OpenAPI document) without editing this file.
 */
export const ENDPOINTS: readonly ListedEndpoint[] = Object.entries(MODULES).flatMap(([module, exports]) =>
  Object.entries(exports)
    .filter((entry): entry is [string, Endpoint] => isEndpoint(entry[1]))
    .map(([name, endpoint]) => ({ module, name, endpoint })),
);
