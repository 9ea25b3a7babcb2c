/** A reading's history page (APP_ROUTES.explore): kept apart so the device page's script takes it alone. */
export const EXPLORE_ROUTE = "/s/sensor-data/explore/:channelKey";

/**
 * The explore page of a channel key. A key is letters, digits, colons and underscores
 * (domain/channelKey.ts), all valid in a path, so it goes in as it is: the page reads it back.
 */
export const explorePathOf = (channelKey: string) => EXPLORE_ROUTE.replace(":channelKey", channelKey);
