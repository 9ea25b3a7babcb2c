import { useEffect } from "react";
import { loadConfig } from "../src/stores/config.ts";
import { loadSession, nextPath } from "../src/stores/session.ts";
import { SignInCard } from "./SignInCard.tsx";

/** /gateway: an already signed-in visitor goes on; everyone else gets the sign-in card. */
export default function GatewayPage() {
  useEffect(() => {
    void loadConfig();
    void loadSession().then((s) => {
      if (s.status === "signedIn") location.replace(nextPath(location.search));
    });
  }, []);
  return (
    <article className="card-narrow">
      <SignInCard Heading="h1" />
    </article>
  );
}
