import { useStore } from "@nanostores/react";
import { useState, type FormEvent } from "react";
import {
  $mfa,
  $mfaForm,
  $mfaSetup,
  confirmMfa,
  disableMfa,
  forgetRememberedDevices,
  startMfaSetup,
} from "../../../src/stores/mfa.ts";
import { getPagePath } from "@nanostores/router";
import { $router } from "../../../src/stores/router.ts";
import { $session } from "../../../src/stores/session.ts";
import { sessionMay } from "../../../src/stores/tags.ts";
import { SignedInBrowsers } from "./SignedInBrowsers.tsx";
import { BusyButton } from "../../ui/BusyButton.tsx";
import { Field, FormErrors } from "../../ui/Field.tsx";

/** Administrators' way to the audit trail (on a phone the menu has no room for it). */
function AuditLink() {
  useStore($session);
  if (!sessionMay("audit.view")) return null;
  return (
    <>
      <h2>Audit trail</h2>
      <p>
        Who changed what and when in this subscription, with sign-ins and exports.{" "}
        <a href={getPagePath($router, "audit")}>Open the audit trail</a>
      </p>
    </>
  );
}

/** One-time passcode on and off, forgetting remembered browsers, and the signed-in browsers. */
export default function SecurityPage() {
  const mfa = useStore($mfa);
  const setup = useStore($mfaSetup);
  const form = useStore($mfaForm);
  const [value, setValue] = useState("");
  const error = form.errors[0]?.message;
  // The typed code or password is cleared once it has done its job.
  const send = (task: (text: string) => Promise<boolean>) => async (e: FormEvent) => {
    e.preventDefault();
    if (await task(value)) setValue("");
  };
  if (!mfa) return <p aria-busy="true">Loading...</p>;
  return (
    <section aria-labelledby="security-heading">
      <h1 id="security-heading">Security</h1>
      <h2>One-time passcode</h2>
      <p>
        {mfa.enabled
          ? "On: signing in asks for a code from your authenticator app."
          : "Off: signing in needs only your password."}
      </p>
      {!mfa.enabled && !setup && (
        <>
          <BusyButton type="button" busy={form.busy} busyLabel="Setting up..." onClick={startMfaSetup}>
            Set up one-time passcode
          </BusyButton>
          <FormErrors messages={error ? [error] : []} />
        </>
      )}
      {setup && (
        <form onSubmit={send(confirmMfa)} aria-label="Confirm one-time passcode">
          <p>Scan this code with your authenticator app, or type the secret, then enter the code it shows.</p>
          <img
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`}
            alt="QR code for your authenticator app"
            width={180}
            height={180}
          />
          <p>
            Secret: <code data-testid="totp-secret">{setup.secret}</code>
          </p>
          <Field
            label="Code from your app"
            inputMode="numeric"
            maxLength={6}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            error={error}
            autoFocus
          />
          <BusyButton busy={form.busy} busyLabel="Turning on...">
            Turn on
          </BusyButton>
        </form>
      )}
      {mfa.enabled && (
        <form onSubmit={send(disableMfa)} aria-label="Turn off one-time passcode">
          <Field
            label="Your password"
            type="password"
            autoComplete="current-password"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            error={error}
          />
          <BusyButton busy={form.busy} busyLabel="Turning off..." className="secondary">
            Turn off
          </BusyButton>
        </form>
      )}
      <h2>Remembered browsers</h2>
      <p>
        {mfa.rememberedDevices} browser{mfa.rememberedDevices === 1 ? "" : "s"} skip the code for 30 days.
      </p>
      <button
        type="button"
        className="secondary outline"
        disabled={mfa.rememberedDevices === 0 || form.busy}
        onClick={() => void forgetRememberedDevices()}
      >
        Forget remembered browsers
      </button>
      <SignedInBrowsers />
      <AuditLink />
    </section>
  );
}
