import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import { formatDate, epochSeconds } from "../src/domain/index.ts";
import {
  $messages,
  $stats,
  dismissMessage,
  loadAccountHome,
  switchSubscription,
} from "../src/stores/account.ts";
import { $session, requireSignedIn, signOut } from "../src/stores/session.ts";
import { Usage } from "./ui/Usage.tsx";
import { ACCOUNT_LINKS, LinkList } from "./ui/LinkList.tsx";

/** /user/welcome: the signed-in home with messages, usage and the way to everything else. */
export default function WelcomePage() {
  const session = useStore($session);
  const messages = useStore($messages);
  const stats = useStore($stats);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void requireSignedIn().then((s) => s && loadAccountHome().catch((e: Error) => setError(e.message)));
  }, []);
  if (session.status !== "signedIn") return <p aria-busy="true">Loading your account...</p>;
  const { info } = session;
  return (
    <>
      <h1>Welcome, {info.firstName || info.email}</h1>
      <p>
        {info.activeSubscription.name} · {info.activeSubscription.role.displayName} ·{" "}
        {info.activeSubscription.tier.name} plan
      </p>
      {info.userAssignmentList.length > 1 && (
        <label>
          Subscription
          <select
            value={info.activeSubscriptionId}
            onChange={(e) =>
              void switchSubscription(Number(e.target.value)).catch((err: Error) => setError(err.message))
            }
          >
            {info.userAssignmentList.map((a) => (
              <option key={a.id} value={a.subscriptionId}>
                {a.subscriptionName} ({a.role.displayName})
              </option>
            ))}
          </select>
        </label>
      )}
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
      <nav aria-label="Your account">
        <LinkList links={ACCOUNT_LINKS} className="tiles" />
      </nav>
      <section aria-labelledby="messages-heading">
        <h2 id="messages-heading">Messages</h2>
        {messages.length === 0 && <p className="muted">No unread messages.</p>}
        {messages.map((m) => (
          <article key={m.id}>
            <header>
              <strong>{m.title}</strong>{" "}
              <small className="muted">{formatDate(epochSeconds(m.timeCreated), info.timezone)}</small>
            </header>
            <p>{m.body}</p>
            <button type="button" className="secondary outline" onClick={() => void dismissMessage(m.id)}>
              Dismiss<span className="visually-hidden"> {m.title}</span>
            </button>
          </article>
        ))}
      </section>
      {stats && <Usage stats={stats} />}
      <button type="button" className="secondary" onClick={() => void signOut()}>
        Sign out
      </button>
    </>
  );
}
