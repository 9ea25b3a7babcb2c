import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { createdAt, tz } from "./helpers.ts";

export const subscriptions = pgTable("subscriptions", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  tierName: text("tier_name").notNull(),
  /** users, devices, alerts, reports, computedChannels, connectors, dataAgeLimitUnit/Value */
  limits: jsonb("limits").$type<Record<string, number | string>>().notNull(),
  /** csvExport, publicUrl, supportLevel, advancedAlerting, cameraMonitoring, plugins, reportRanges */
  features: jsonb("features").$type<Record<string, boolean | string | number>>().notNull(),
  supportsRoles: boolean("supports_roles").notNull().default(true),
  advancedRoles: boolean("advanced_roles").notNull().default(false),
  samlConfigName: text("saml_config_name"),
  crmOrgId: integer("crm_org_id").notNull().default(0),
  createdAt: createdAt(),
});

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    passwordHash: text("password_hash"),
    /**
     * Raised by every password reset (not by a re-hash of the same password): a sign-in
     * starts its session only while it is still the one it read with the password.
     */
    credentialVersion: integer("credential_version").notNull().default(0),
    timezone: text("timezone").notNull().default("UTC"),
    temperatureScale: text("temperature_scale").$type<"C" | "F">().notNull().default("C"),
    activeSubscriptionId: integer("active_subscription_id").references(() => subscriptions.id),
    totpSecret: text("totp_secret"),
    /** A secret shown during setup, enabled only after a first code confirms it. */
    totpPendingSecret: text("totp_pending_secret"),
    /** The last accepted TOTP time step: a code works once. */
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    emailVerifiedAt: tz("email_verified_at"),
    termsAcceptedAt: tz("terms_accepted_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_lower").on(sql`lower(${t.email})`)],
);

export const userAssignments = pgTable(
  "user_assignments",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    roleId: integer("role_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("user_assignments_user_sub").on(t.userId, t.subscriptionId)],
);

export const pendingUserAssignments = pgTable("pending_user_assignments", {
  id: serial("id").primaryKey(),
  email: text("email").notNull(),
  subscriptionId: integer("subscription_id")
    .notNull()
    .references(() => subscriptions.id, { onDelete: "cascade" }),
  roleId: integer("role_id").notNull(),
  createdAt: createdAt(),
});

export const sessions = pgTable(
  "sessions",
  {
    /** sha256 of the cookie value; the raw id never touches the database. */
    idHash: text("id_hash").primaryKey(),
    /** Order of creation: the oldest session ends first when a person has too many. */
    seq: serial("seq"),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastSeenAt: tz("last_seen_at").notNull().defaultNow(),
    /** Sliding (7 days from last use), never beyond 30 days from createdAt. */
    expiresAt: tz("expires_at").notNull(),
    /** A short description such as "Firefox on Windows", for the person's list of sessions. */
    browser: text("browser").notNull().default(""),
  },
  (t) => [index("sessions_user_seq").on(t.userId, t.seq)],
);

/** Password accepted, one-time code still owed: the browser holds the challenge cookie. */
export const loginChallenges = pgTable("login_challenges", {
  idHash: text("id_hash").primaryKey(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  expiresAt: tz("expires_at").notNull(),
  attempts: integer("attempts").notNull().default(0),
});

export const rememberedDevices = pgTable("remembered_devices", {
  id: serial("id").primaryKey(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull().unique(),
  expiresAt: tz("expires_at").notNull(),
  revokedAt: tz("revoked_at"),
  createdAt: createdAt(),
});

/** Single-use, expiring tokens for registration and password reset links. */
export const authTokens = pgTable("auth_tokens", {
  id: serial("id").primaryKey(),
  purpose: text("purpose").notNull(),
  email: text("email").notNull(),
  userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull().unique(),
  referrer: text("referrer"),
  expiresAt: tz("expires_at").notNull(),
  usedAt: tz("used_at"),
  createdAt: createdAt(),
});

/**
 * Rate limits live in the database so every instance shares them: per key, the times of the
 * events still inside its sliding window (at most the limit's max of them, oldest first).
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  events: tz("events")
    .array()
    .notNull()
    .default(sql`'{}'`),
});

export const accountMessages = pgTable("account_messages", {
  id: serial("id").primaryKey(),
  subscriptionId: integer("subscription_id").references(() => subscriptions.id, { onDelete: "cascade" }),
  title: text("title").notNull(),
  body: text("body").notNull(),
  timeCreated: tz("time_created").notNull().defaultNow(),
});

export const accountMessageViews = pgTable(
  "account_message_views",
  {
    messageId: integer("message_id")
      .notNull()
      .references(() => accountMessages.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    timeViewed: tz("time_viewed").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId] })],
);

export const samlConfigs = pgTable("saml_configs", {
  name: text("name").primaryKey(),
  subscriptionId: integer("subscription_id")
    .notNull()
    .references(() => subscriptions.id, { onDelete: "cascade" }),
  entryPoint: text("entry_point").notNull(),
  issuer: text("issuer").notNull(),
  idpCert: text("idp_cert").notNull(),
});

/**
 * Sent SAML request ids, consumed assertion ids (against replay) and verified sign-ins
 * waiting for the browser that started them (`ticket`, with who and where in `data`).
 */
export const samlSeen = pgTable("saml_seen", {
  id: text("id").primaryKey(),
  kind: text("kind").notNull(),
  expiresAt: tz("expires_at").notNull(),
  data: jsonb("data").$type<Record<string, unknown>>(),
});

/** Mail written here first; sent by SMTP when configured, shown at /dev/mailbox otherwise. */
export const outbox = pgTable("outbox", {
  id: serial("id").primaryKey(),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  html: text("html"),
  createdAt: createdAt(),
  sentAt: tz("sent_at"),
  /** Until when the one-time link in the text works; after it (or once sent) the link is cut out. */
  secretUntil: tz("secret_until"),
});

/**
 * Random secrets the server's instances share through the database they share, made once by
 * whichever instance needs one first (data/serverSecrets.ts): the read-after-write cookie's
 * signing key (http/wroteCookie.ts). Never sent to a client.
 */
export const serverSecrets = pgTable("server_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: tz("created_at").notNull().defaultNow(),
});
