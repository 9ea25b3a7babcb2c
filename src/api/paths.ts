/**
 * Paths of the calls the public pages (order, quote, device, report) make before any framework loads: their
 * small painting scripts import these strings (and pathOf) instead of the contracts, which
 * would bring the schema library along. The contracts use the same constants.
 */
export const PUBLIC_API = {
  order: "/api/v1/orders/public/:ref",
  quote: "/api/v1/quotes/public/:id",
  device: "/api/v1/device-data/public/device-details/:publicPageHash",
  report: "/api/v1/device-data/public/report/:publicHash",
  reportData: "/api/v1/device-data/public/report/data/:hash",
  reportCompliance: "/api/v1/device-data/public/report/compliance/:hash",
} as const;
