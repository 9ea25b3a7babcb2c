import { sha256 } from "../core/crypto.ts";
import { DEVICE_SPECS } from "./deviceSpecs.ts";

/**
 * Demo devices get keys derived from their MAC so the seed stays deterministic and the
 * simulator can sign its pushes; only demo data uses this.
 */
export function demoDeviceKey(macAddress: string): string {
  return sha256(`demo-device-key:${macAddress}`).slice(0, 43);
}

const DEMO_KEYS: ReadonlySet<string> = new Set(DEVICE_SPECS.map((d) => demoDeviceKey(d.mac)));

/** True for a key the seed gives a demo device: anyone can compute it, so only demo mode accepts it. */
export const isDemoDeviceKey = (key: string) => DEMO_KEYS.has(key);
