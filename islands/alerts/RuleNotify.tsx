import { useState } from "react";
import type { RuleInput } from "../../src/api/alerts.ts";
import type { FieldError } from "../../src/api/errors.ts";
import { Cell, list, num } from "./ruleParts.tsx";

/*
 * The rule editor's "who is told" part (RuleDialog.tsx holds what it watches): the person,
 * other addresses and webhooks, repeats, the first escalation tier and the quiet hours.
 */

type Notified = Pick<RuleInput, "notify" | "repeatMinutes" | "escalation" | "quietHours">;

/** The part's fields as typed, from the rule's draft; `draft()` turns them back into the rule's. */
export function useNotifyFields(start: Notified, me: { userId: number; zone: string }) {
  const [notifyMe, setNotifyMe] = useState(start.notify.userIds.includes(me.userId));
  const [emails, setEmails] = useState(start.notify.emails.join(", "));
  const [hooks, setHooks] = useState(start.notify.webhookUrls.join("\n"));
  const [repeat, setRepeat] = useState(String(start.repeatMinutes));
  const [escAfter, setEscAfter] = useState(
    start.escalation[0] ? String(start.escalation[0].afterMinutes) : "",
  );
  const [escEmails, setEscEmails] = useState(start.escalation[0]?.emails.join(", ") ?? "");
  const [quietFrom, setQuietFrom] = useState(start.quietHours?.from ?? "");
  const [quietTo, setQuietTo] = useState(start.quietHours?.to ?? "");
  const zone = start.quietHours?.timeZone ?? me.zone;
  const draft = (): Notified => ({
    repeatMinutes: num(repeat) ?? 0,
    notify: { userIds: notifyMe ? [me.userId] : [], emails: list(emails), webhookUrls: list(hooks) },
    // The first tier is edited here; further tiers (made through the API) stay as they are.
    escalation: escAfter
      ? [
          {
            afterMinutes: num(escAfter) ?? 0,
            userIds: start.escalation[0]?.userIds ?? [],
            emails: list(escEmails),
          },
          ...start.escalation.slice(1),
        ]
      : [],
    quietHours: quietFrom || quietTo ? { from: quietFrom, to: quietTo, timeZone: zone } : null,
  });
  return {
    draft,
    zone,
    notifyMe: [notifyMe, setNotifyMe] as const,
    emails: [emails, setEmails] as const,
    hooks: [hooks, setHooks] as const,
    repeat: [repeat, setRepeat] as const,
    escAfter: [escAfter, setEscAfter] as const,
    escEmails: [escEmails, setEscEmails] as const,
    quietFrom: [quietFrom, setQuietFrom] as const,
    quietTo: [quietTo, setQuietTo] as const,
  };
}

export function NotifyFieldset({
  fields: f,
  errors,
}: {
  fields: ReturnType<typeof useNotifyFields>;
  errors: FieldError[];
}) {
  const errorOf = (field: string) => errors.find((e) => e.field === field)?.message;
  const errorUnder = (prefix: string) => errors.find((x) => x.field?.startsWith(prefix))?.message;
  return (
    <fieldset>
      <legend>Notify</legend>
      <label>
        <input type="checkbox" checked={f.notifyMe[0]} onChange={(e) => f.notifyMe[1](e.target.checked)} />{" "}
        Email me (in my scale and time zone)
      </label>
      <Cell
        label="Other email addresses"
        hint="Separated by commas"
        value={f.emails[0]}
        onChange={(e) => f.emails[1](e.target.value)}
        error={errorUnder("notify.emails")}
      />
      <label htmlFor="rule-hooks">Webhook URLs (one per line)</label>
      <textarea
        id="rule-hooks"
        rows={2}
        value={f.hooks[0]}
        onChange={(e) => f.hooks[1](e.target.value)}
        aria-describedby="rule-hooks-note"
      />
      <small id="rule-hooks-note">
        {errorUnder("notify.webhookUrls") ??
          "Each call is signed (X-Portal-Signature, HMAC-SHA256 of the body)."}
      </small>
      <div className="grid">
        <Cell
          label="Repeat every (minutes, 0 never)"
          inputMode="numeric"
          value={f.repeat[0]}
          onChange={(e) => f.repeat[1](e.target.value)}
          error={errorOf("repeatMinutes")}
        />
        <Cell
          label="Escalate after (minutes unacknowledged)"
          inputMode="numeric"
          value={f.escAfter[0]}
          onChange={(e) => f.escAfter[1](e.target.value)}
          error={errorUnder("escalation")}
        />
      </div>
      {f.escAfter[0] && (
        <Cell
          label="Escalate to (email addresses)"
          value={f.escEmails[0]}
          onChange={(e) => f.escEmails[1](e.target.value)}
        />
      )}
      <div className="grid">
        <Cell
          label={`Quiet hours from (${f.zone})`}
          type="time"
          value={f.quietFrom[0]}
          onChange={(e) => f.quietFrom[1](e.target.value)}
          hint="Warnings wait until the quiet hours end; critical alarms never do."
          error={errorUnder("quietHours")}
        />
        <Cell
          label="Quiet hours until"
          type="time"
          value={f.quietTo[0]}
          onChange={(e) => f.quietTo[1](e.target.value)}
        />
      </div>
    </fieldset>
  );
}
