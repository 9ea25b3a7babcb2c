import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { $router } from "../../src/stores/router.ts";
import { $session, requireSignedIn, signOut } from "../../src/stores/session.ts";
import { ComingSoon } from "./pages/ComingSoon.tsx";
import { SecurityPage } from "./pages/SecurityPage.tsx";
import { SettingsPage } from "./pages/SettingsPage.tsx";
import { ACCOUNT_LINKS, LinkList } from "../ui/LinkList.tsx";

/** The signed-in /s app: a route switch, nothing more. */
export default function App() {
  const page = useStore($router);
  const session = useStore($session);
  useEffect(() => void requireSignedIn(), []);
  if (session.status !== "signedIn") return <p aria-busy="true">Loading your account...</p>;
  return (
    <>
      <nav aria-label="Account">
        <LinkList links={[["/user/welcome", "Home"], ...ACCOUNT_LINKS]} />
        <ul>
          <li>
            <button type="button" className="secondary outline" onClick={() => void signOut()}>
              Sign out
            </button>
          </li>
        </ul>
      </nav>
      {page?.route === "settings" ? (
        <SettingsPage />
      ) : page?.route === "security" ? (
        <SecurityPage />
      ) : (
        <ComingSoon />
      )}
    </>
  );
}
