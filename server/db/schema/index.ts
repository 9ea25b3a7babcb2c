// The one schema, used by PGlite and PostgreSQL alike.
export * from "./accounts.ts";
export * from "./devices.ts";
export * from "./reports.ts";
export * from "./rollups.ts";
export * from "./commerce.ts";
export * from "./ops.ts";
export * from "./alerts.ts";
export * from "./audit.ts";
export * from "./visitors.ts";
export * from "./chartComments.ts";
export * from "./reportSchedules.ts";
