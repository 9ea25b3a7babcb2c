import { useStore } from "@nanostores/react";
import { Suspense, useEffect } from "react";
import { $router } from "../../src/stores/router.ts";
import { $session, requireSignedIn } from "../../src/stores/session.ts";
import { AppNav } from "./AppNav.tsx";
import { notFound, pages } from "./pages.ts";

const loading = (text: string) => <p aria-busy="true">{text}</p>;

/** The signed-in app (/user/welcome and /s/*): sign-in guard, nav, and the route's page. */
export default function App() {
  const page = useStore($router);
  const session = useStore($session);
  useEffect(() => void requireSignedIn(), []);
  // A session that owes the terms is on its way to accepting them: no page calls the API before.
  if (session.status !== "signedIn" || !session.termsAccepted) return loading("Loading your account...");
  const Page = page ? pages[page.route] : notFound;
  return (
    <>
      <AppNav current={page?.route} />
      <Suspense fallback={loading("Loading...")}>
        <Page />
      </Suspense>
    </>
  );
}
