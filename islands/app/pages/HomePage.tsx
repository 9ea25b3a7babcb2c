import { useStore } from "@nanostores/react";
import { epochSeconds } from "../../../src/domain/brand.ts";
import { $home, $messages, $stats, dismissMessage, switchSubscription } from "../../../src/stores/account.ts";
import { $session } from "../../../src/stores/session.ts";
import { DateText } from "../../ui/DateText.tsx";
import { FormErrors } from "../../ui/Field.tsx";
import { Usage } from "../../ui/Usage.tsx";
import { AlarmBanner } from "../../alerts/AlarmBanner.tsx";

/** /user/welcome: the signed-in home with messages and usage; the app's nav leads on. */
export default function HomePage() {
  const session = useStore($session);
  const messages = useStore($messages);
  const stats = useStore($stats);
  const home = useStore($home);
  if (session.status !== "signedIn") return null;
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
            onChange={(e) => void switchSubscription(Number(e.target.value))}
          >
            {info.userAssignmentList.map((a) => (
              <option key={a.id} value={a.subscriptionId}>
                {a.subscriptionName} ({a.role.displayName})
              </option>
            ))}
          </select>
        </label>
      )}
      <FormErrors messages={home.errors.map((e) => e.message)} />
      {/* Exceptions first: what needs someone now leads the page. */}
      <AlarmBanner />
      <section aria-labelledby="messages-heading">
        <h2 id="messages-heading">Messages</h2>
        {messages.length === 0 && <p className="muted">No unread messages.</p>}
        {messages.map((m) => (
          <article key={m.id}>
            <header>
              <strong>{m.title}</strong>{" "}
              <small className="muted">
                <DateText at={epochSeconds(m.timeCreated)} zone={info.timezone} />
              </small>
            </header>
            <p>{m.body}</p>
            <button type="button" className="secondary outline" onClick={() => void dismissMessage(m.id)}>
              Dismiss<span className="visually-hidden"> {m.title}</span>
            </button>
          </article>
        ))}
      </section>
      {stats && <Usage stats={stats} />}
    </>
  );
}
