import { atom, onMount } from "nanostores";
import {
  disableMfa as disableCall,
  enableMfa,
  forgetRememberedDevices as forgetCall,
  getMfa,
  startMfaSetup as setupCall,
  type MfaStatus,
} from "../api/accounts.ts";
import type { ResponseOf } from "../api/endpoint.ts";
import { formStore, formTask } from "./formTask.ts";
import { call } from "./http.ts";

export type MfaSetup = ResponseOf<typeof setupCall>;

/** Whether the one-time passcode is on, and how many browsers skip it; loads when shown. */
export const $mfa = atom<MfaStatus | null>(null);
/** The secret and QR code of a setup in progress. */
export const $mfaSetup = atom<MfaSetup | null>(null);
/** Busy and errors of the security page's passcode actions. */
export const $mfaForm = formStore();

onMount($mfa, () => {
  void loadMfa();
});

export async function loadMfa() {
  $mfa.set(await call(getMfa));
}

/** Shows a new secret and QR code; nothing changes until a first code confirms it. */
export const startMfaSetup = () =>
  formTask($mfaForm, async () => {
    $mfaSetup.set(await call(setupCall));
  });

/** Turns the passcode on with a first code from the app. */
export const confirmMfa = (code: string) =>
  formTask($mfaForm, async () => {
    await call(enableMfa, { code });
    $mfaSetup.set(null);
    await loadMfa();
  });

/** Turns the passcode off, confirmed by the password. */
export const disableMfa = (password: string) =>
  formTask($mfaForm, async () => {
    await call(disableCall, { password });
    await loadMfa();
  });

/** Every remembered browser asks for the code again. */
export const forgetRememberedDevices = () =>
  formTask($mfaForm, async () => {
    await call(forgetCall);
    await loadMfa();
  });
