/**
 * Paths of the calls the public order and quote pages make before any framework loads: their
 * small painting scripts import these strings (and pathOf) instead of the contracts, which
 * would bring the schema library along. The contracts use the same constants.
 */
export const PUBLIC_API = {
  order: "/api/v1/orders/public/:ref",
  quote: "/api/v1/quotes/public/:id",
} as const;
