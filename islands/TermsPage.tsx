import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { PATHS } from "../src/domain/paths.ts";
import { signOut } from "../src/stores/session.ts";
import { $termsForm, $termsReady, acceptTerms, openTermsPage } from "../src/stores/terms.ts";
import { BusyButton } from "./ui/BusyButton.tsx";
import { FormErrors } from "./ui/Field.tsx";

/**
 * /terms/acknowledge: a fresh session that has not accepted the terms accepts them here, or
 * signs out.
 */
export default function TermsPage() {
  const ready = useStore($termsReady);
  const form = useStore($termsForm);
  useEffect(() => void openTermsPage(), []);
  if (!ready) return <p aria-busy="true">Loading...</p>;
  return (
    <article>
      <p>
        Please read the{" "}
        <a href={PATHS.terms} target="_blank" rel="noopener">
          Terms of Service
        </a>{" "}
        and accept them to continue to your account.
      </p>
      <div className="button-row">
        <BusyButton
          type="button"
          busy={form.busy}
          busyLabel="I accept the Terms of Service"
          onClick={acceptTerms}
        >
          I accept the Terms of Service
        </BusyButton>
        {/* A way out without accepting: the /s app's Sign out (islands/app/AppNav.tsx). */}
        <button type="button" className="secondary outline" onClick={() => void signOut()}>
          Sign out
        </button>
      </div>
      <FormErrors messages={form.errors.map((e) => e.message)} />
    </article>
  );
}
