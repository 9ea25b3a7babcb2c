import { useStore } from "@nanostores/react";
import { $session } from "../../../src/stores/session.ts";
import { $endOthers, $sessions, endOtherSessions } from "../../../src/stores/sessions.ts";
import { BusyButton } from "../../ui/BusyButton.tsx";
import { DateText } from "../../ui/DateText.tsx";

/** Where the person is signed in, newest first, with "Sign out everywhere else". */
export function SignedInBrowsers() {
  const state = useStore($sessions);
  const session = useStore($session);
  const endOthers = useStore($endOthers);
  const zone = session.status === "signedIn" ? session.info.timezone : undefined;
  const note =
    endOthers.errors[0]?.message ??
    (endOthers.ended === null
      ? null
      : `Signed out ${endOthers.ended} other session${endOthers.ended === 1 ? "" : "s"}.`);
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
            busy={endOthers.busy}
            busyLabel="Signing out..."
            disabled={!state.list.some((s) => !s.current)}
            onClick={() => void endOtherSessions()}
          >
            Sign out everywhere else
          </BusyButton>
        </>
      )}
      {note && <p role="status">{note}</p>}
    </>
  );
}
