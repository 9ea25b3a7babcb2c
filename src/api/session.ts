import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";
import { idField, temperatureScaleField, timezoneField } from "./fields.ts";

export const RoleSchema = z.object({ id: z.number(), name: z.string(), displayName: z.string() });

const LimitValue = z.union([z.number(), z.string()]);
const Tier = z.object({
  name: z.string(),
  limits: z.record(z.string(), LimitValue),
  features: z.record(z.string(), z.union([z.boolean(), z.string(), z.number()])),
});

/** The spec's sessionInformation (section 3, Session). */
export const SessionInformationSchema = z.object({
  userId: z.number(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  timezone: z.string(),
  temperatureScale: temperatureScaleField,
  activeSubscriptionId: z.number(),
  userAssignmentList: z.array(
    z.object({ id: z.number(), subscriptionId: z.number(), subscriptionName: z.string(), role: RoleSchema }),
  ),
  activeSubscription: z.object({
    id: z.number(),
    name: z.string(),
    tier: Tier,
    limitMap: z.record(z.string(), LimitValue),
    role: RoleSchema,
    supportsRoles: z.boolean(),
    advancedRoles: z.boolean(),
    samlEnabled: z.boolean(),
  }),
});
export type SessionInformation = z.infer<typeof SessionInformationSchema>;
export type Role = z.infer<typeof RoleSchema>;

const count = z.number();
const limit = z.optional(LimitValue);
/** Counts of the active subscription against its tier's limits. */
export const StatsSchema = z.object({
  userCount: count,
  deviceCount: count,
  alertCount: count,
  reportCount: count,
  connectorCount: count,
  computedChannelCount: count,
  legacyDeviceCount: count,
  transferredDeviceCount: count,
  archivedDeviceCount: count,
  userLimit: limit,
  deviceLimit: limit,
  alertLimit: limit,
  reportLimit: limit,
  connectorLimit: limit,
  computedChannelLimit: limit,
  legacyDeviceLimit: limit,
  transferredDeviceLimit: limit,
  archivedDeviceLimit: limit,
  dataAgeLimitUnit: limit,
  dataAgeLimitValue: limit,
});
export type Stats = z.infer<typeof StatsSchema>;

const Terms = z.object({ termsAccepted: z.boolean() });

/** The person's settings every signed-in page uses; a patch names at least one. */
export const SettingsPatch = z
  .strictObject({ temperatureScale: z.optional(temperatureScaleField), timezone: z.optional(timezoneField) })
  .check(
    z.refine(
      (s) => s.temperatureScale !== undefined || s.timezone !== undefined,
      "Send temperatureScale or timezone.",
    ),
  );

export const getSession = endpoint({
  method: "get",
  path: "/api/v1/session",
  host: "api",
  body: "none",
  request: undefined,
  response: z.object({ sessionInformation: SessionInformationSchema, termsAccepted: z.boolean() }),
  summary: "Session check: who is signed in, in which subscription, with which role.",
});

export const getStats = endpoint({
  method: "get",
  path: "/api/v1/session/subscription/stats",
  host: "api",
  body: "none",
  request: undefined,
  response: StatsSchema,
  summary: "Usage of the active subscription against its plan.",
});

export const getTermsAccepted = endpoint({
  method: "get",
  path: "/api/v1/session/terms-accepted",
  host: "api",
  body: "none",
  request: undefined,
  response: Terms,
  summary: "Whether the person has accepted the Terms of Service.",
});

export const acceptTerms = endpoint({
  method: "post",
  path: "/api/v1/session/terms-accepted",
  host: "api",
  body: "none",
  request: undefined,
  response: Terms,
  summary: "Records that the person accepted the Terms of Service.",
});

export const patchSettings = endpoint({
  method: "patch",
  path: "/api/v1/session/settings",
  host: "api",
  body: "json",
  request: SettingsPatch,
  response: z.object({ temperatureScale: temperatureScaleField, timezone: z.string() }),
  summary: "Changes the temperature scale and time zone.",
});

export const setActiveSubscription = endpoint({
  method: "post",
  path: "/api/v1/session/active-subscription",
  host: "api",
  body: "json",
  request: z.strictObject({ subscriptionId: idField }),
  response: z.object({ activeSubscriptionId: z.number() }),
  summary: "Makes another of the person's subscriptions the active one.",
});
