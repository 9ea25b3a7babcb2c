import { useStore } from "@nanostores/react";
import { useEffect, useState, type FormEvent } from "react";
import { RequestFailure } from "../../../src/stores/http.ts";
import {
  $mfa,
  $mfaSetup,
  confirmMfa,
  disableMfa,
  forgetRememberedDevices,
  loadMfa,
  startMfaSetup,
} from "../../../src/stores/mfa.ts";
import { $session } from "../../../src/stores/session.ts";
import { $sessions, endOtherSessions } from "../../../src/stores/sessions.ts";
import { BusyButton } from "../../ui/BusyButton.tsx";
import { DateText } from "../../ui/DateText.tsx";
import { Field } from "../../ui/Field.tsx";

/** One-time passcode on and off, forgetting remembered browsers, and the signed-in browsers. */
export function SecurityPage() {
  const mfa = useStore($mfa);
  const setup = useStore($mfaSetup);
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | undefined>();
  useEffect(() => void loadMfa(), []);
  const attempt = (task: () => Promise<void>) => async (e?: FormEvent) => {
    e?.preventDefault();
    setError(undefined);
    try {
      await task();
      setValue("");
    } catch (err) {
      setError(err instanceof RequestFailure ? err.errors[0]?.message : String(err));
    }
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
        <button type="button" onClick={() => void attempt(startMfaSetup)()}>
          Set up one-time passcode
        </button>
      )}
      {setup && (
        <form onSubmit={attempt(() => confirmMfa(value))} aria-label="Confirm one-time passcode">
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
          <button type="submit">Turn on</button>
        </form>
      )}
      {mfa.enabled && (
        <form onSubmit={attempt(() => disableMfa(value))} aria-label="Turn off one-time passcode">
          <Field
            label="Your password"
            type="password"
            autoComplete="current-password"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            error={error}
          />
          <button type="submit" className="secondary">
            Turn off
          </button>
        </form>
      )}
      <h2>Remembered browsers</h2>
      <p>
        {mfa.rememberedDevices} browser{mfa.rememberedDevices === 1 ? "" : "s"} skip the code for 30 days.
      </p>
      <button
        type="button"
        className="secondary outline"
        disabled={mfa.rememberedDevices === 0}
        onClick={() => void attempt(forgetRememberedDevices)()}
      >
        Forget remembered browsers
      </button>
      <SignedInBrowsers />
    </section>
  );
}

/** Where the person is signed in, newest first, with "Sign out everywhere else". */
function SignedInBrowsers() {
  const state = useStore($sessions);
  const session = useStore($session);
  const zone = session.status === "signedIn" ? session.info.timezone : undefined;
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const signOutOthers = async () => {
    setBusy(true);
    setNote(null);
    try {
      const ended = await endOtherSessions();
      setNote(`Signed out ${ended} other session${ended === 1 ? "" : "s"}.`);
    } catch (err) {
      setNote((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <h2 id="sessions-heading">Signed-in browsers</h2>
      {state.status === "loading" && <p aria-busy="true">Loading...</p>}
      {state.status === "failed" && (
        <p role="alert" className="form-error">
          {state.message}
        </p>
      )}
      {state.status === "ready" && (
        <>
          <p className="muted">
            A session ends after 7 days without use and 30 days after signing in; at most 10 at a time.
          </p>
          <ul aria-labelledby="sessions-heading" style={{ padding: 0 }}>
            {state.list.map((s, i) => (
              <li key={i} style={{ listStyle: "none", marginBottom: "0.75rem" }}>
                <strong>{s.browser}</strong>{" "}
                {s.current && <span className="badge badge-info">This browser</span>}
                <br />
                <small className="muted">
                  Signed in <DateText at={s.createdAt} zone={zone} withTime />
                  <br />
                  Last active <DateText at={s.lastSeenAt} zone={zone} withTime />
                </small>
              </li>
            ))}
          </ul>
          <BusyButton
            type="button"
            className="secondary outline"
            busy={busy}
            label="Sign out everywhere else"
            busyLabel="Signing out..."
            disabled={!state.list.some((s) => !s.current)}
            onClick={() => void signOutOthers()}
          />
        </>
      )}
      {note && <p role="status">{note}</p>}
    </>
  );
}
