import type { Config } from "../config.ts";

/**
 * Where emailed links point: the account origin, else the public origin, else this computer.
 * Never the request's Host: the sender chooses it, and a reset link on their name hands
 * them the token. (config.ts refuses a non-loopback HOST without an origin.)
 */
export function linkOrigin(config: Config): string {
  return config.origins.account || config.origins.public || `http://localhost:${config.port}`;
}

/** Public pages (an order's link in a receipt) live on the public origin, else linkOrigin's. */
export function pageLinkOrigin(config: Config): string {
  return config.origins.public || linkOrigin(config);
}
