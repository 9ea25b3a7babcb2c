// The two portals every browser test shares (tests/e2e/globalSetup.ts starts them).
export const PORTAL = "http://127.0.0.1:4410";
export const CONFIGURED = "http://127.0.0.1:4411";
export const CONFIGURED_ACCOUNT = "http://accounts.localhost:4412";
