// An alert rule's input checked and made ready to store (server/flows/alertRules.ts stores it):
// every id checked against the caller's subscription (channels, devices, tags, members,
// threshold ranges), thresholds put in the channel's unit, webhook addresses held to the
// private-network policy.
import { ApiError, type FieldError } from "../core/errors.ts";
import type { Db } from "../db/client.ts";
import {
  channelByKey,
  deviceSubscription,
  membersAmong,
  tagsAmong,
  thresholdRange,
  type NewRule,
} from "../data/alerts.ts";
import { PRIVATE_REFUSED, urlAllowed, type PrivatePolicy } from "../services/webhooks.ts";
import { storedThresholds, THRESHOLD_KINDS } from "../../src/domain/alerts.ts";
import type { RuleInput } from "../../src/api/alerts.ts";

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

type Resolved = Omit<NewRule, "subscriptionId">;

const fail = (field: string, message: string): never => {
  throw new ApiError(400, [{ field, message }]);
};

/** The rule as stored, from what the caller sent; every id checked against the subscription. */
export async function resolveRule(
  db: Db,
  sub: number,
  input: RuleInput,
  policy: PrivatePolicy,
): Promise<Resolved> {
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
