// Alert rules as people make them: made, changed and removed after their input is checked
// (ruleInput.ts), with the plan's alert limit counted under the subscription's row lock (no
// check-then-count race), and answered as the API says.
import { createHash } from "node:crypto";
import { inTransaction, type Db } from "../db/client.ts";
import {
  channelById,
  countRules,
  deleteRuleRow,
  insertRule,
  openAlarmsOfRule,
  ruleExtras,
  rulesOf,
  setRuleTags,
  updateRuleRow,
  watchNames,
  type RuleRow,
} from "../data/alerts.ts";
import { requireRoom } from "../data/planLimits.ts";
import type { PrivatePolicy } from "../services/webhooks.ts";
import { moveAlarm, dropPending } from "./alarmMoves.ts";
import { resolveRule } from "./ruleInput.ts";
import { typedThreshold } from "../../src/domain/alerts.ts";
import type { Rule, RuleInput } from "../../src/api/alerts.ts";
import type { Celsius } from "../../src/domain/brand.ts";
import { isTemperatureKind } from "../../src/domain/device.ts";
import { adjustmentFromCelsius } from "../../src/domain/temperature.ts";

export interface RuleCaller {
  subscriptionId: number;
  userId: number;
}

/**
 * A webhook URL as people who cannot edit rules see it: its origin only. URLs often carry a
 * credential (a chat hook's path, an api key in the query).
 */
export const maskedUrl = (url: string) => {
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return "…";
  }
};

/**
 * A webhook URL as the audit trail keeps it: its origin, and the first 8 hex digits of the
 * SHA-256 of the whole address, so a hook moved to another on the same host shows as a change
 * while its path (often a credential) is not kept. The trail's readers, Administrators, may
 * read the rules' full addresses anyway.
 */
export const auditedUrl = (url: string) =>
  `${maskedUrl(url)} #${createHash("sha256").update(url).digest("hex").slice(0, 8)}`;

/** The rule as a reader without alert.edit sees it. */
export const maskRule = (r: Rule): Rule => ({
  ...r,
  notify: { ...r.notify, webhookUrls: r.notify.webhookUrls.map(maskedUrl) },
});

export async function createRule(
  db: Db,
  caller: RuleCaller,
  input: RuleInput,
  policy: PrivatePolicy,
  now: Date,
): Promise<RuleRow> {
  const values = await resolveRule(db, caller.subscriptionId, input, policy);
  return inTransaction(db, async (tx) => {
    await requireRoom(tx, caller.subscriptionId, "alerts", () => countRules(tx, caller.subscriptionId));
    const rule = await insertRule(tx, {
      ...values,
      subscriptionId: caller.subscriptionId,
      createdBy: caller.userId,
      createdAt: now,
      updatedAt: now,
    });
    await setRuleTags(tx, rule.id, input.tagIds);
    return rule;
  });
}

/** The rule as its input, so a PATCH is checked as a whole rule again. */
export async function inputOfRule(db: Db, rule: RuleRow, tagIds: number[]): Promise<RuleInput> {
  const ch = rule.channelId ? await channelById(db, rule.channelId) : undefined;
  const kind = rule.channelKind;
  const scale = rule.scale as "C" | "F";
  const condition: RuleInput["condition"] = {
    type: rule.kind as RuleInput["condition"]["type"],
    low: typedThreshold(kind, rule.low, scale),
    high: typedThreshold(kind, rule.high, scale),
    scale,
    deadBand: deadBandTyped(kind, rule.deadBand, scale),
    graceSeconds: rule.graceSeconds,
  };
  return {
    name: rule.name,
    severity: rule.severity as RuleInput["severity"],
    channelKey: ch?.key ?? null,
    deviceId: rule.deviceId,
    tagId: rule.tagId,
    channelKind: rule.channelId ? null : (rule.channelKind as RuleInput["channelKind"]),
    condition,
    delaySeconds: rule.delaySeconds,
    delayReadings: rule.delayReadings,
    repeatMinutes: rule.repeatMinutes,
    notify: rule.notify,
    escalation: rule.escalation,
    quietHours: rule.quietHours,
    paused: rule.paused,
    tagIds,
  };
}

/** A dead band is a difference: °F is 9/5 of °C, without the 32. */
const deadBandTyped = (kind: string | null, stored: number, scale: "C" | "F") =>
  kind && isTemperatureKind(kind) ? (adjustmentFromCelsius(stored as Celsius, scale) as number) : stored;

/**
 * Changes a rule. A paused or retargeted rule's open alarms clear without notices: they were
 * about a condition the rule no longer watches.
 */
export async function changeRule(
  db: Db,
  caller: RuleCaller,
  rule: RuleRow,
  current: RuleInput,
  patch: { [K in keyof RuleInput]?: RuleInput[K] | undefined },
  policy: PrivatePolicy,
  now: Date,
): Promise<RuleRow> {
  const sent = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  const merged = { ...current, ...sent } as RuleInput;
  // A new target replaces the old one whole.
  if (patch.channelKey || patch.deviceId || patch.tagId) {
    merged.channelKey = patch.channelKey ?? null;
    merged.deviceId = patch.deviceId ?? null;
    merged.tagId = patch.tagId ?? null;
  }
  const values = await resolveRule(db, caller.subscriptionId, merged, policy);
  return inTransaction(db, async (tx) => {
    const updated = await updateRuleRow(tx, rule.id, { ...values, updatedAt: now });
    if (patch.tagIds) await setRuleTags(tx, rule.id, patch.tagIds);
    const retargeted =
      values.channelId !== rule.channelId ||
      values.deviceId !== rule.deviceId ||
      values.tagId !== rule.tagId ||
      values.kind !== rule.kind;
    if (values.paused || retargeted) await closeOpenAlarms(tx, rule.id, now, "rule paused or changed");
    return updated;
  });
}

export async function removeRule(db: Db, rule: RuleRow, now: Date) {
  return inTransaction(db, async (tx) => {
    await closeOpenAlarms(tx, rule.id, now, "rule deleted");
    return deleteRuleRow(tx, rule.id);
  });
}

async function closeOpenAlarms(tx: Db, ruleId: number, now: Date, why: string) {
  for (const alarm of await openAlarmsOfRule(tx, ruleId)) {
    if (alarm.state === "pending") await dropPending(tx, alarm);
    else await moveAlarm(tx, alarm, null, "cleared", { at: now, note: why, silent: true }, now);
  }
}

/** The rules of a subscription as the API answers them. */
export async function rulesAnswer(db: Db, subscriptionId: number): Promise<Rule[]> {
  const [list, extras, names] = [
    await rulesOf(db, subscriptionId),
    await ruleExtras(db, subscriptionId),
    await watchNames(db, subscriptionId),
  ];
  const found = new Map<number, { key: string; deviceId: number }>();
  for (const r of list)
    if (r.channelId) {
      const ch = await channelById(db, r.channelId);
      if (ch) found.set(r.id, ch);
    }
  return list.map((r) =>
    ruleAnswer(r, {
      channelKey: found.get(r.id)?.key ?? null,
      channelDeviceId: found.get(r.id)?.deviceId ?? null,
      extras,
      names,
    }),
  );
}

export function ruleAnswer(
  r: RuleRow,
  ctx: {
    channelKey: string | null;
    channelDeviceId?: number | null;
    extras: Awaited<ReturnType<typeof ruleExtras>>;
    names: Map<string, string>;
  },
): Rule {
  const scale = r.scale as "C" | "F";
  const kindText = r.channelKind ? ` (${r.channelKind.replace(/_/g, " ")})` : "";
  const watches = r.channelId
    ? (ctx.names.get(`channel:${r.channelId}`) ?? "A channel")
    : r.deviceId
      ? `${ctx.names.get(`device:${r.deviceId}`) ?? "A device"}${kindText}`
      : r.tagId
        ? `Devices tagged ${ctx.names.get(`tag:${r.tagId}`) ?? "?"}${kindText}`
        : "Every device";
  return {
    id: r.id,
    name: r.name,
    severity: r.severity as Rule["severity"],
    kind: r.kind,
    channelKey: ctx.channelKey,
    channelDeviceId: ctx.channelDeviceId ?? null,
    deviceId: r.deviceId,
    tagId: r.tagId,
    channelKind: r.channelKind,
    watches,
    condition: {
      type: r.kind,
      low: typedThreshold(r.channelKind, r.low, scale),
      high: typedThreshold(r.channelKind, r.high, scale),
      scale,
      deadBand: deadBandTyped(r.channelKind, r.deadBand, scale),
      graceSeconds: r.graceSeconds,
    },
    delaySeconds: r.delaySeconds,
    delayReadings: r.delayReadings,
    repeatMinutes: r.repeatMinutes,
    notify: r.notify,
    escalation: r.escalation,
    quietHours: r.quietHours,
    paused: r.paused,
    tagIds: ctx.extras.tagsByRule.get(r.id) ?? [],
    openAlarms: ctx.extras.openByRule.get(r.id) ?? 0,
  };
}
