import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";
import { emailField } from "./fields.ts";
import { formIdField } from "./quoteOrder.ts";

/*
 * Grant Account Access (spec sections 6 and 7; account host, form-encoded): someone who
 * already has a profile joins the caller's active subscription at once, anyone else gets an
 * invitation mail whose link registers them in that subscription. The quote or order named
 * must belong to the active subscription (a foreign or missing one is a 404).
 */

/** The words the dialog and the server use (spec sections 6 and 8, word for word). */
export const GRANT_ACCESS_MESSAGES = {
  federated:
    "Because your organization has a federated account, access can only be granted through your identity provider.",
  failed: "Unexpected Error.",
  alreadyMember: "This person already has access to this account.",
  isQuote: "isQuote must be 'true' or 'false'.",
} as const;

/** What the dialog shows after a successful grant, for both outcomes (spec section 7). */
export const inviteSentMessage = (email: string): string => `Invite sent to ${email}`;

/** 'true'/'false' as a form sends it ('1'/'0' too); read as a boolean. */
const formBoolean = z.pipe(
  z.enum(["true", "false", "1", "0"], { error: GRANT_ACCESS_MESSAGES.isQuote }),
  z.transform((v) => v === "true" || v === "1"),
);

export const GrantAccessResultSchema = z.object({
  /** 'added': the profile joined now; 'invited': an invitation mail went out. */
  outcome: z.enum(["added", "invited"]),
  /** The address as the server stored it (trimmed, lower-cased). */
  emailAddress: z.string(),
  /** The role given ('added') or to be given on registration ('invited'). */
  role: z.enum(["Administrator", "Billing"]),
});
export type GrantAccessResult = z.infer<typeof GrantAccessResultSchema>;

/**
 * POST {account host}/subscription/data/grant-access. Failures use the error envelope: 400
 * with field errors (isQuote, resourceId, emailAddress); 403 with the federated message for a
 * subscription that signs in through its identity provider, or when the caller may not grant;
 * 404 for a quote or order not of the active subscription; 409 with `alreadyMember` when the
 * address already belongs to the subscription.
 */
export const grantAccountAccess = endpoint({
  method: "post",
  path: "/subscription/data/grant-access",
  host: "account",
  body: "form",
  request: z.object({
    isQuote: formBoolean,
    resourceId: formIdField,
    emailAddress: emailField,
  }),
  response: GrantAccessResultSchema,
  summary:
    "Gives a person access to the active subscription from one of its quotes or orders: an existing profile joins at once (Billing with advanced roles, else Administrator), anyone else is mailed an invitation to register into it.",
});
