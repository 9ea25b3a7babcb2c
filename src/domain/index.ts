// The pure rules of the spec, shared by browser and server.
export * from "./brand.ts";
export * from "./enums.ts";
export * from "./money.ts";
export * from "./lineItem.ts";
export * from "./dates.ts";
export * from "./quote.ts";
export * from "./order.ts";
export * from "./device.ts";
export * from "./temperature.ts";
export * from "./channelKey.ts";
export * from "./card.ts";
export * from "./tags.ts";
export * from "./roles.ts";
export * from "./location.ts";
export * from "./labels.ts";
export * from "./auth.ts";
export * from "./permissions.ts";
