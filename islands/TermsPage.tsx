import { useEffect, useState } from "react";
import { send } from "../src/stores/http.ts";
import { nextPath, requireSignedIn } from "../src/stores/session.ts";

/** /terms/acknowledge: a fresh session that has not accepted the terms accepts them here. */
export default function TermsPage() {
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void requireSignedIn().then((s) => {
      if (s?.termsAccepted) location.replace(nextPath(location.search));
      else if (s) setReady(true);
    });
  }, []);
  const accept = async () => {
    setBusy(true);
    try {
      await send("api", "/api/v1/session/terms-accepted", { json: {} });
      location.assign(nextPath(location.search));
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  if (!ready) return <p aria-busy="true">Loading...</p>;
  return (
    <article>
      <p>
        Please read the{" "}
        <a href="/terms" target="_blank" rel="noopener">
          Terms of Service
        </a>{" "}
        and accept them to continue to your account.
      </p>
      <button type="button" onClick={accept} aria-busy={busy} disabled={busy}>
        I accept the Terms of Service
      </button>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </article>
  );
}
