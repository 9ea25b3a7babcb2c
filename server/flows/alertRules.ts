// Alert rules as people make them: every id in a rule is checked against the caller's
// subscription (channels, devices, tags, members, threshold ranges), thresholds are stored in
// the channel's unit, webhook addresses are held to the private-network policy, and the plan's
// alert limit is counted under the subscription's row lock (no check-then-count race).
import { ApiError, type FieldError } from "../core/errors.ts";
import { inTransaction, type Db } from "../db/client.ts";
import {
  channelById,
  channelByKey,
  countRules,
  deleteRuleRow,
  deviceSubscription,
  insertRule,
  membersAmong,
  openAlarmsOfRule,
  ruleExtras,
  rulesOf,
  setRuleTags,
  tagsAmong,
  thresholdRange,
  updateRuleRow,
  watchNames,
  type NewRule,
  type RuleRow,
} from "../data/alerts.ts";
import { requireRoom } from "../data/planLimits.ts";
import { PRIVATE_REFUSED, urlAllowed, type PrivatePolicy } from "../services/webhooks.ts";
import { moveAlarm, dropPending } from "./alarmMoves.ts";
import { storedThresholds, THRESHOLD_KINDS, typedThreshold } from "../../src/domain/alerts.ts";
import type { Rule, RuleInput } from "../../src/api/alerts.ts";
import type { Celsius } from "../../src/domain/brand.ts";
import { isTemperatureKind } from "../../src/domain/device.ts";
import { adjustmentFromCelsius } from "../../src/domain/temperature.ts";

export const PICK_TARGET = "Pick a channel, or a device or tag and the kind of channel to watch.";
export const TARGET_BOTH = "Pick one of a channel, a device or a tag.";
export const DEVICE_RULE_CHANNEL =
  "Device rules watch a device, a tag's devices or every device, not a channel.";
export const NO_SUCH_CHANNEL = "No such channel in this subscription.";
export const NO_SUCH_DEVICE = "No such device in this subscription.";
export const NO_SUCH_TAG = "No such tag in this subscription.";
export const NO_SUCH_RANGE = "No such threshold range in this subscription.";
export const NOT_A_MEMBER = "Not a member of this subscription.";
export const NEEDS_HIGH = "Give the high limit.";
export const NEEDS_LOW = "Give the low limit.";
export const LOW_BELOW_HIGH = "The low limit must be below the high limit.";

export interface RuleCaller {
  subscriptionId: number;
  userId: number;
}

type Resolved = Omit<NewRule, "subscriptionId">;

const fail = (field: string, message: string): never => {
  throw new ApiError(400, [{ field, message }]);
};

/** The rule as stored, from what the caller sent; every id checked against the subscription. */
async function resolve(db: Db, sub: number, input: RuleInput, policy: PrivatePolicy): Promise<Resolved> {
  const c = input.condition;
  const threshold = (THRESHOLD_KINDS as readonly string[]).includes(c.type);
  const targets = [input.channelKey, input.deviceId, input.tagId].filter(
    (t) => t !== undefined && t !== null,
  );
  if (targets.length > 1) fail("channelKey", TARGET_BOTH);
  let channelId: number | null = null;
  let channelKind: string | null = input.channelKind ?? null;
  if (input.channelKey) {
    if (!threshold) fail("channelKey", DEVICE_RULE_CHANNEL);
    const ch = await channelByKey(db, input.channelKey);
    if (!ch || ch.subscription_id !== sub) fail("channelKey", NO_SUCH_CHANNEL);
    channelId = ch!.id;
    channelKind = ch!.kind;
  }
  if (input.deviceId) {
    const d = await deviceSubscription(db, input.deviceId);
    if (!d || d.subscriptionId !== sub) fail("deviceId", NO_SUCH_DEVICE);
  }
  if (input.tagId && !(await tagsAmong(db, sub, [input.tagId])).size) fail("tagId", NO_SUCH_TAG);
  if (threshold && !channelId && (!targets.length || !channelKind)) fail("channelKey", PICK_TARGET);

  let low: number | null = null;
  let high: number | null = null;
  let deadBand = 0;
  let scale: "C" | "F" = "F";
  let graceSeconds = 0;
  if (threshold) {
    if (c.thresholdRangeId && c.low !== undefined && c.low !== null)
      fail("condition.thresholdRangeId", "Give a threshold range or the limits, not both.");
    scale = c.scale;
    if (c.thresholdRangeId) {
      const range = await thresholdRange(db, c.thresholdRangeId);
      if (!range || range.subscription_id !== sub) fail("condition.thresholdRangeId", NO_SUCH_RANGE);
      // A report's range is kept in the channel's unit already.
      const typed = storedThresholds(channelKind!, scale, { low: null, high: null, deadBand: c.deadBand });
      low = range!.min_value;
      high = range!.max_value;
      deadBand = typed.deadBand;
    } else {
      const stored = storedThresholds(channelKind!, scale, {
        low: c.low ?? null,
        high: c.high ?? null,
        deadBand: c.deadBand,
      });
      ({ low, high, deadBand } = stored);
    }
    if (c.type !== "below" && high === null) fail("condition.high", NEEDS_HIGH);
    if (c.type !== "above" && low === null) fail("condition.low", NEEDS_LOW);
    if (c.type === "outside" && low! >= high!) fail("condition.low", LOW_BELOW_HIGH);
    if (c.type === "above") low = null;
    if (c.type === "below") high = null;
  }
  if (c.type === "offline") graceSeconds = c.graceSeconds;
  if (!threshold && (c.thresholdRangeId || input.channelKind)) fail("condition.type", DEVICE_RULE_CHANNEL);

  const errors: FieldError[] = [];
  const people = [...input.notify.userIds, ...input.escalation.flatMap((e) => e.userIds)];
  const members = await membersAmong(db, sub, people);
  input.notify.userIds.forEach((id, i) => {
    if (!members.has(id)) errors.push({ field: `notify.userIds.${i}`, message: NOT_A_MEMBER });
  });
  input.escalation.forEach((tier, t) =>
    tier.userIds.forEach((id, i) => {
      if (!members.has(id)) errors.push({ field: `escalation.${t}.userIds.${i}`, message: NOT_A_MEMBER });
    }),
  );
  input.notify.webhookUrls.forEach((url, i) => {
    if (!urlAllowed(url, policy)) errors.push({ field: `notify.webhookUrls.${i}`, message: PRIVATE_REFUSED });
  });
  const tags = await tagsAmong(db, sub, input.tagIds);
  input.tagIds.forEach((id, i) => {
    if (!tags.has(id)) errors.push({ field: `tagIds.${i}`, message: NO_SUCH_TAG });
  });
  if (errors.length) throw new ApiError(400, errors);

  return {
    name: input.name,
    kind: c.type,
    severity: input.severity,
    channelId,
    deviceId: input.deviceId ?? null,
    tagId: input.tagId ?? null,
    channelKind: threshold ? channelKind : null,
    low,
    high,
    scale,
    deadBand,
    delaySeconds: input.delaySeconds,
    delayReadings: input.delayReadings,
    graceSeconds,
    repeatMinutes: input.repeatMinutes,
    // Each person, address and URL once.
    notify: {
      userIds: [...new Set(input.notify.userIds)],
      emails: [...new Set(input.notify.emails)],
      webhookUrls: [...new Set(input.notify.webhookUrls)],
    },
    escalation: input.escalation.map((e) => ({
      ...e,
      userIds: [...new Set(e.userIds)],
      emails: [...new Set(e.emails)],
    })),
    quietHours: input.quietHours ?? null,
    paused: input.paused,
  };
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
  const values = await resolve(db, caller.subscriptionId, input, policy);
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
  const values = await resolve(db, caller.subscriptionId, merged, policy);
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
