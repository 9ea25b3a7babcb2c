import type { ResponseOf } from "../../src/api/endpoint.ts";
import type { getSession } from "../../src/api/session.ts";

/** The session check's answer for a visitor who is not signed in. */
export const NOT_SIGNED_IN = { status: 401, errors: [{ field: null, message: "Sign in first." }] };

/** A session check's answer for Ada, administrator of Acme Labs. */
export function session(over: { termsAccepted?: boolean } = {}): ResponseOf<typeof getSession> {
  return {
    termsAccepted: over.termsAccepted ?? true,
    sessionInformation: {
      userId: 1,
      email: "ada@example.com",
      firstName: "Ada",
      lastName: "Lovelace",
      timezone: "UTC",
      temperatureScale: "C",
      activeSubscriptionId: 1,
      userAssignmentList: [],
      activeSubscription: {
        id: 1,
        name: "Acme Labs",
        tier: { name: "Professional", limits: {}, features: {} },
        limitMap: {},
        role: { id: 1, name: "admin", displayName: "Administrator" },
        supportsRoles: true,
        advancedRoles: false,
        samlEnabled: false,
      },
    },
  };
}
