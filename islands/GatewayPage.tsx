import { useEffect, useSyncExternalStore } from "react";
import { samlRefusalMessage } from "../src/domain/auth.ts";
import { here } from "../src/stores/navigate.ts";
import { leaveIfSignedIn } from "../src/stores/session.ts";
import { SignInCard } from "./SignInCard.tsx";

/** The address bar does not change while this page is open. */
const noChanges = () => () => {};

/**
 * /gateway: an already signed-in visitor goes on; everyone else gets the sign-in card, with
 * the reason when the account service sent them back from a refused federated sign-in.
 */
export default function GatewayPage() {
  // The server-rendered card has no address bar: "" there, the real query after hydration.
  const search = useSyncExternalStore(
    noChanges,
    () => here().search,
    () => "",
  );
  const refusal = samlRefusalMessage(new URLSearchParams(search).get("saml"));
  useEffect(() => void leaveIfSignedIn(), []);
  return (
    <article className="card-narrow">
      {refusal && (
        <p role="alert" className="form-error">
          {refusal}
        </p>
      )}
      <SignInCard Heading="h1" />
    </article>
  );
}
