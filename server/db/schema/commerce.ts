import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  json,
  jsonb,
  pgSequence,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { subscriptions, users } from "./accounts.ts";
import { createdAt, tz } from "./helpers.ts";
import { cents, type Cents } from "../../../src/domain/brand.ts";

/** Country list; lists exclude the crmId 0 entry (spec section 5). */
export const countries = pgTable("countries", {
  id: integer("id").primaryKey(),
  crmId: integer("crm_id").notNull(),
  code: text("code").notNull(),
  name: text("name").notNull(),
  abbreviation: text("abbreviation").notNull(),
});

export const addresses = pgTable("addresses", {
  id: serial("id").primaryKey(),
  subscriptionId: integer("subscription_id").references(() => subscriptions.id, { onDelete: "cascade" }),
  companyName: text("company_name"),
  contactName: text("contact_name"),
  attention: text("attention"),
  line1: text("line1"),
  line2: text("line2"),
  city: text("city"),
  state: text("state"),
  zipCode: text("zip_code"),
  countryId: integer("country_id").references(() => countries.id),
  phoneNumber: text("phone_number"),
});

/**
 * Money is integer cents (bigint) with the spec's currency id (USD 1, EUR 2), typed as `Cents`
 * so a dollar amount cannot be written where cents belong (a type only; the column is unchanged).
 */
const money = (name: string) => bigint(name, { mode: "number" }).$type<Cents>();

export const quotes = pgTable("quotes", {
  id: integer("id").primaryKey(),
  subscriptionId: integer("subscription_id").references(() => subscriptions.id, { onDelete: "set null" }),
  status: text("status").notNull(),
  productFamily: text("product_family").notNull(),
  contactName: text("contact_name").notNull(),
  contactEmail: text("contact_email"),
  createdAt: createdAt(),
  expiresAt: tz("expires_at"),
  currency: integer("currency").notNull().default(1),
  crmOrgId: integer("crm_org_id").notNull().default(cents(0)),
  needsShipping: boolean("needs_shipping").notNull().default(true),
  shippingAddressId: integer("shipping_address_id").references(() => addresses.id),
  billingAddressId: integer("billing_address_id").references(() => addresses.id),
  specialistName: text("specialist_name"),
  specialistPhone: text("specialist_phone"),
  specialistPhoneExtension: text("specialist_phone_extension"),
  shippingCost: money("shipping_cost").notNull().default(cents(0)),
  shippingCarrier: text("shipping_carrier"),
  shippingMethod: text("shipping_method"),
  tax: money("tax").notNull().default(cents(0)),
  /** Unguessable token for the full (pay-as-guest) view; QUO-{n} alone shows only the summary. */
  publicToken: text("public_token").notNull().unique(),
  orderId: integer("order_id"),
});

export const quoteLineItems = pgTable(
  "quote_line_items",
  {
    id: serial("id").primaryKey(),
    quoteId: integer("quote_id")
      .notNull()
      .references(() => quotes.id, { onDelete: "cascade" }),
    productNumber: text("product_number").notNull(),
    description: text("description").notNull(),
    quantity: integer("quantity").notNull(),
    discount: text("discount"),
    listPrice: money("list_price").notNull(),
    currency: integer("currency").notNull().default(1),
  },
  (t) => [index("quote_line_items_quote").on(t.quoteId)],
);

export const orders = pgTable(
  "orders",
  {
    id: integer("id").primaryKey(),
    subscriptionId: integer("subscription_id").references(() => subscriptions.id, { onDelete: "set null" }),
    quoteId: integer("quote_id"),
    /** Unguessable part of ORD-{id}-{validationId}. */
    validationId: text("validation_id").notNull().unique(),
    productFamily: text("product_family").notNull(),
    contactName: text("contact_name").notNull(),
    /** The quote's contact as the back office set it: the only address that may join its subscription. */
    contactEmail: text("contact_email"),
    /** Where the payer asked for receipts (typed into a payment or order form): grants nothing. */
    receiptEmail: text("receipt_email"),
    createdAt: createdAt(),
    shippingTimestamp: tz("shipping_timestamp"),
    shippingStatus: text("shipping_status").notNull(),
    poNumber: text("po_number"),
    paymentStatus: text("payment_status").notNull(),
    paymentType: text("payment_type"),
    currency: integer("currency").notNull().default(1),
    crmOrgId: integer("crm_org_id").notNull().default(cents(0)),
    shippingAddressId: integer("shipping_address_id").references(() => addresses.id),
    billingAddressId: integer("billing_address_id").references(() => addresses.id),
    tax: money("tax").notNull().default(cents(0)),
    shippingAmount: money("shipping_amount").notNull().default(cents(0)),
    shipMethod: text("ship_method"),
    shipCarrier: text("ship_carrier"),
    referrerCode: text("referrer_code"),
  },
  (t) => [index("orders_subscription").on(t.subscriptionId)],
);

export const orderLineItems = pgTable(
  "order_line_items",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productNumber: text("product_number").notNull(),
    description: text("description").notNull(),
    quantity: integer("quantity").notNull(),
    discount: text("discount"),
    listPrice: money("list_price").notNull(),
    currency: integer("currency").notNull().default(1),
  },
  (t) => [index("order_line_items_order").on(t.orderId)],
);

/** Card numbers and CVV are never stored: brand and last four only. */
export const payments = pgTable(
  "payments",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    amount: money("amount").notNull(),
    currency: integer("currency").notNull().default(1),
    method: text("method").notNull(),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    poNumber: text("po_number"),
    poFileId: integer("po_file_id"),
    idempotencyKey: text("idempotency_key").notNull(),
    gatewayReference: text("gateway_reference"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("payments_idempotency").on(t.idempotencyKey)],
);

export const shipments = pgTable(
  "shipments",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    shippingDate: tz("shipping_date"),
    carrier: text("carrier").notNull(),
    shipMethod: text("ship_method").notNull(),
    trackingNumber: text("tracking_number").notNull().unique(),
    toCity: text("to_city"),
    toState: text("to_state"),
    toCountry: text("to_country"),
    fromCity: text("from_city"),
    fromState: text("from_state"),
    fromCountryCode: text("from_country_code"),
    isDelivered: boolean("is_delivered").notNull().default(false),
  },
  (t) => [index("shipments_order").on(t.orderId)],
);

export const shipmentItems = pgTable("shipment_items", {
  id: serial("id").primaryKey(),
  shipmentId: integer("shipment_id")
    .notNull()
    .references(() => shipments.id, { onDelete: "cascade" }),
  orderLineItemId: integer("order_line_item_id")
    .notNull()
    .references(() => orderLineItems.id, { onDelete: "cascade" }),
  quantity: integer("quantity").notNull(),
});

/** Carrier activity per tracking number, newest shown first. */
export const trackingActivity = pgTable(
  "tracking_activity",
  {
    id: serial("id").primaryKey(),
    trackingNumber: text("tracking_number").notNull(),
    occurredAt: tz("occurred_at").notNull(),
    locationDescription: text("location_description").notNull(),
    description: text("description").notNull(),
    signedForByName: text("signed_for_by_name"),
  },
  (t) => [index("tracking_activity_number").on(t.trackingNumber)],
);

/** The built-in carrier rate table. */
export const shippingOptions = pgTable("shipping_options", {
  serviceCode: text("service_code").primaryKey(),
  name: text("name").notNull(),
  carrierName: text("carrier_name").notNull(),
  serviceName: text("service_name").notNull(),
  basePrice: money("base_price").notNull(),
  perItemPrice: money("per_item_price").notNull(),
  isDisabled: boolean("is_disabled").notNull().default(false),
});

/** The built-in tax table, basis points by country and region ('*' for any region). */
export const taxRates = pgTable(
  "tax_rates",
  {
    id: serial("id").primaryKey(),
    countryCode: text("country_code").notNull(),
    region: text("region").notNull(),
    rateBasisPoints: integer("rate_basis_points").notNull(),
  },
  (t) => [uniqueIndex("tax_rates_country_region").on(t.countryCode, t.region)],
);

export const uploadedFiles = pgTable("uploaded_files", {
  id: serial("id").primaryKey(),
  subscriptionId: integer("subscription_id").references(() => subscriptions.id, { onDelete: "set null" }),
  userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
  fileName: text("file_name").notNull(),
  contentType: text("content_type").notNull(),
  size: integer("size").notNull(),
  sha256: text("sha256").notNull(),
  storedPath: text("stored_path").notNull(),
  /** The order placed on terms with this purchase-order file. */
  orderId: integer("order_id").references(() => orders.id, { onDelete: "set null" }),
  createdAt: createdAt(),
});

/**
 * Ids of orders the portal creates itself (a guest ordering a quote); orders.id stays a plain
 * integer so records from the back office keep their own ids. Starts well above the demo's.
 */
export const orderIds = pgSequence("orders_id_seq", { startWith: 100001, maxValue: 2_147_483_647 });

/**
 * One row per payment attempt, keyed by the browser's idempotency key: a retry, a double
 * click or parallel submits with one key find this row and get its stored answer. `subject`
 * names the record paid ('order:5003', 'quote:1001'); at most one attempt per subject is
 * pending at a time, so two keys paying one record at once charge once. `fingerprint` is a
 * hash of the details that matter (never the card number or the code); `details` keeps the
 * non-card fields a later request needs to finish an attempt whose process died.
 */
export const paymentAttempts = pgTable(
  "payment_attempts",
  {
    idempotencyKey: text("idempotency_key").primaryKey(),
    subject: text("subject").notNull(),
    fingerprint: text("fingerprint").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    details: jsonb("details").notNull(),
    /** The answer sent, {status, body}, replayed to every request with the same key. */
    response: json("response"),
    createdAt: createdAt(),
    updatedAt: tz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payment_attempts_pending_subject")
      .on(t.subject)
      .where(sql`status = 'pending'`),
  ],
);

/**
 * The sandbox gateway's own ledger (it plays an outside processor): one charge per key, so a
 * retry after a crash gets the charge that was made, never a second one.
 */
export const sandboxCharges = pgTable("sandbox_charges", {
  idempotencyKey: text("idempotency_key").primaryKey(),
  amount: money("amount").notNull(),
  currency: integer("currency").notNull(),
  brand: text("brand").notNull(),
  last4: text("last4").notNull(),
  reference: text("reference").notNull().unique(),
  createdAt: createdAt(),
});
