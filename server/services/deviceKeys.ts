import { randomToken } from "../core/crypto.ts";

// The keys' home is core/crypto.ts; tests/server/badInput.test.ts still imports these two names.
export { sha256 } from "../core/crypto.ts";
export const newDeviceKey = () => randomToken();
