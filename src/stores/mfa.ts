import { atom } from "nanostores";
import { send } from "./http.ts";

export interface MfaStatus {
  enabled: boolean;
  rememberedDevices: number;
}
export interface MfaSetup {
  secret: string;
  otpauthUri: string;
  qrSvg: string;
}

export const $mfa = atom<MfaStatus | null>(null);
export const $mfaSetup = atom<MfaSetup | null>(null);

export async function loadMfa() {
  $mfa.set(await send<MfaStatus>("api", "/api/v1/account/mfa", { method: "get" }));
}

/** Shows a new secret and QR code; nothing changes until a first code confirms it. */
export async function startMfaSetup() {
  $mfaSetup.set(await send<MfaSetup>("api", "/api/v1/account/mfa/setup"));
}

export async function confirmMfa(code: string) {
  await send("api", "/api/v1/account/mfa/enable", { json: { code } });
  $mfaSetup.set(null);
  await loadMfa();
}

export async function disableMfa(password: string) {
  await send("api", "/api/v1/account/mfa/disable", { json: { password } });
  await loadMfa();
}

export async function forgetRememberedDevices() {
  await send("api", "/api/v1/account/mfa/remembered-devices", { method: "delete" });
  await loadMfa();
}
