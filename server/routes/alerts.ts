import { Hono } from "hono";
import { ApiError, NOT_FOUND } from "../core/errors.ts";
import { randomToken, sha256 } from "../core/crypto.ts";
import type { Auth } from "../data/auth.ts";
import {
  deviceSubscription,
  ruleById,
  ruleDeviceId,
  ruleExtras,
  setDeviceMute,
  watchNames,
  webhookSecretOf,
} from "../data/alerts.ts";
import { ackLink, alarmList, alarmView } from "../data/alarms.ts";
import type { Deps } from "../deps.ts";
import { acknowledge, alarmAnswer, alarmDetail } from "../flows/alarmAnswers.ts";
import {
  changeRule,
  createRule,
  inputOfRule,
  maskedUrl,
  maskRule,
  removeRule,
  ruleAnswer,
  rulesAnswer,
} from "../flows/alertRules.ts";
import { guard } from "../http/access.ts";
import { authOf, inSubscription } from "../http/auth.ts";
import { idParam, inputOf } from "../http/input.ts";
import { reply } from "../http/reply.ts";
import { audited, byUser } from "../flows/audited.ts";
import { ruleEntry, ruleValues } from "../flows/ruleAudit.ts";
import { EntityType } from "../../src/domain/enums.ts";
import { SIGNATURE_HEADER } from "../services/webhooks.ts";
import { planLimit } from "../../src/domain/plan.ts";
import { roleMay } from "../../src/domain/permissions.ts";
import { LINK_INVALID } from "../../src/domain/auth.ts";
import {
  createRule as createRuleCall,
  deleteRule,
  listRules,
  muteDevice,
  updateRule,
  webhookSecret,
} from "../../src/api/alerts.ts";
import {
  ALREADY_CLEARED,
  acknowledgeAlarm,
  acknowledgeByLink,
  alarmByLink,
  getAlarm,
  listAlarms,
} from "../../src/api/alarms.ts";

/** An acknowledgement: the alarm moved to acknowledged, with its note (the ALERT_COMMENT). */
const ackEntry = (alarm: { id: number; deviceId: number; ruleName: string }, note: string) => ({
  action: "alert.acknowledge",
  entityType: EntityType.ALERT_COMMENT,
  entityId: alarm.id,
  deviceId: alarm.deviceId,
  before: { name: alarm.ruleName, state: "triggered" },
  after: { name: alarm.ruleName, state: "acknowledged", note },
});

const caller = (auth: Auth) => ({ subscriptionId: auth.subscription.id, userId: auth.user.id });
/** "Ada Lovelace (ada@example.com)", or the address alone. */
const personOf = (auth: Auth) =>
  `${[auth.user.firstName, auth.user.lastName].filter(Boolean).join(" ") || auth.user.email} (${auth.user.email})`;

async function ruleFor(deps: Deps, auth: Auth, id: number) {
  const rule = await ruleById(deps.db, id);
  if (!rule) throw new ApiError(404, NOT_FOUND);
  inSubscription(auth, rule);
  return rule;
}

async function alarmFor(deps: Deps, auth: Auth, id: number) {
  const alarm = await alarmView(deps.db, id);
  if (!alarm) throw new ApiError(404, NOT_FOUND);
  inSubscription(auth, alarm);
  return alarm;
}

/** A link's reader is shown the scale the rule was written in. */
async function scaleOf(deps: Deps, ruleId: number | null): Promise<"C" | "F"> {
  const rule = ruleId ? await ruleById(deps.db, ruleId) : undefined;
  return rule?.scale === "C" ? "C" : "F";
}

async function oneRule(deps: Deps, auth: Auth, id: number) {
  const sub = auth.subscription.id;
  const all = await rulesAnswer(deps.db, sub);
  const found = all.find((r) => r.id === id);
  if (found) return found;
  const rule = await ruleFor(deps, auth, id);
  return ruleAnswer(rule, {
    channelKey: null,
    extras: await ruleExtras(deps.db, sub),
    names: await watchNames(deps.db, sub),
  });
}

/** Alert rules, alarms and acknowledgements (issue 34); static paths before /alerts/:id. */
export function alertRoutes(deps: Deps) {
  const { db, now } = deps;
  const policy = deps.config.webhookPrivate;
  return new Hono()
    .get(listRules.path, guard(listRules, deps), async (c) => {
      const auth = authOf(c);
      const all = await rulesAnswer(db, auth.subscription.id);
      const rules = roleMay(auth.roleId, "alert.edit") ? all : all.map(maskRule);
      return reply(c, listRules, {
        rules,
        alertCount: rules.length,
        alertLimit: planLimit(auth.subscription.limits, "alerts"),
      });
    })
    .post(createRuleCall.path, guard(createRuleCall, deps), async (c) => {
      const auth = authOf(c);
      const input = await inputOf(c, createRuleCall);
      const rule = await audited(
        deps,
        async (tx) => {
          const made = await createRule(tx, caller(auth), input, policy, now());
          const values = await ruleValues(tx, auth.subscription.id, input);
          return { ...made, deviceId: await ruleDeviceId(tx, made.id), values };
        },
        (made) => ({
          ...ruleEntry(auth, made.id, "alert.rule.create", made.deviceId),
          after: made.values,
        }),
      );
      deps.alertWork.kick();
      return reply(c, createRuleCall, await oneRule(deps, auth, rule.id));
    })
    .patch(updateRule.path, guard(updateRule, deps), async (c) => {
      const auth = authOf(c);
      const rule = await ruleFor(deps, auth, idParam(c));
      const patch = await inputOf(c, updateRule);
      const extras = await ruleExtras(db, auth.subscription.id);
      const current = await inputOfRule(db, rule, extras.tagsByRule.get(rule.id) ?? []);
      const before = await ruleValues(db, auth.subscription.id, current);
      await audited(
        deps,
        async (tx) => {
          await changeRule(tx, caller(auth), rule, current, patch, policy, now());
          const after = await ruleValues(tx, auth.subscription.id, { ...current, ...patch });
          return { deviceId: await ruleDeviceId(tx, rule.id), after };
        },
        ({ deviceId, after }) => ({
          ...ruleEntry(auth, rule.id, "alert.rule.change", deviceId),
          before,
          after,
        }),
      );
      deps.alertWork.kick();
      return reply(c, updateRule, await oneRule(deps, auth, rule.id));
    })
    .delete(deleteRule.path, guard(deleteRule, deps), async (c) => {
      const rule = await ruleFor(deps, authOf(c), idParam(c));
      const deviceId = await ruleDeviceId(db, rule.id);
      const removed = await audited(
        deps,
        (tx) => removeRule(tx, rule, now()),
        (gone) => ({
          ...ruleEntry(authOf(c), rule.id, "alert.rule.delete", deviceId),
          before: gone ? { name: rule.name, kind: rule.kind } : null,
          after: null,
        }),
      );
      if (!removed) throw new ApiError(404, NOT_FOUND);
      return reply(c, deleteRule, { id: rule.id });
    })
    .get(webhookSecret.path, guard(webhookSecret, deps), async (c) => {
      const secret = await webhookSecretOf(db, authOf(c).subscription.id, () => randomToken());
      return reply(c, webhookSecret, { secret, header: SIGNATURE_HEADER });
    })
    .get(alarmByLink.path, guard(alarmByLink, deps), async (c) => {
      const { token } = await inputOf(c, alarmByLink);
      const link = await ackLink(db, sha256(token), now());
      const alarm = link ? await alarmView(db, link.alarmId) : undefined;
      if (!link || !alarm) throw new ApiError(404, LINK_INVALID);
      // The link is for an open alarm; once cleared it shows nothing of it.
      if (alarm.state === "cleared") throw new ApiError(404, ALREADY_CLEARED);
      return reply(c, alarmByLink, {
        alarm: alarmAnswer(alarm, await scaleOf(deps, alarm.ruleId)),
        recipient: link.recipient,
      });
    })
    .post(acknowledgeByLink.path, guard(acknowledgeByLink, deps), async (c) => {
      const { token, note } = await inputOf(c, acknowledgeByLink);
      const link = await ackLink(db, sha256(token), now());
      if (!link) throw new ApiError(404, LINK_INVALID);
      const alarm = await audited(
        deps,
        (tx) => acknowledge(tx, link.alarmId, link.recipient, note, now()),
        (done) => ({
          ...ackEntry(done, note),
          subscriptionId: done.subscriptionId,
          actor: { kind: "mail-link", label: link.recipient },
        }),
      );
      deps.alertWork.kick();
      return reply(c, acknowledgeByLink, alarmAnswer(alarm, await scaleOf(deps, alarm.ruleId)));
    })
    .post(muteDevice.path, guard(muteDevice, deps), async (c) => {
      const auth = authOf(c);
      const deviceId = idParam(c, "deviceId");
      const device = await deviceSubscription(db, deviceId);
      if (!device) throw new ApiError(404, NOT_FOUND);
      inSubscription(auth, device);
      const { minutes } = await inputOf(c, muteDevice);
      const until = minutes ? new Date(now().getTime() + minutes * 60_000) : null;
      await audited(deps, (tx) => setDeviceMute(tx, deviceId, until), {
        ...byUser(auth),
        action: "alert.device.mute",
        entityType: EntityType.DEVICE,
        entityId: deviceId,
        deviceId,
        always: true,
        after: { mutedUntil: until ? until.toISOString() : null },
      });
      return reply(c, muteDevice, {
        deviceId,
        mutedUntil: until ? Math.floor(until.getTime() / 1000) : null,
      });
    })
    .get(listAlarms.path, guard(listAlarms, deps), async (c) => {
      const auth = authOf(c);
      const { state, deviceId } = await inputOf(c, listAlarms);
      const list = await alarmList(
        db,
        auth.subscription.id,
        state === "active",
        deviceId ? Number(deviceId) : undefined,
      );
      const scale = auth.user.temperatureScale;
      return reply(c, listAlarms, { alarms: list.map((a) => alarmAnswer(a, scale)) });
    })
    .get(getAlarm.path, guard(getAlarm, deps), async (c) => {
      const auth = authOf(c);
      const alarm = await alarmFor(deps, auth, idParam(c));
      const detail = await alarmDetail(db, alarm, auth.user.temperatureScale);
      if (!roleMay(auth.roleId, "alert.edit"))
        detail.deliveries = detail.deliveries.map((d) =>
          d.channel === "webhook" ? { ...d, recipient: maskedUrl(d.recipient) } : d,
        );
      return reply(c, getAlarm, detail);
    })
    .post(acknowledgeAlarm.path, guard(acknowledgeAlarm, deps), async (c) => {
      const auth = authOf(c);
      const alarm = await alarmFor(deps, auth, idParam(c));
      const { note } = await inputOf(c, acknowledgeAlarm);
      const done = await audited(
        deps,
        (tx) => acknowledge(tx, alarm.id, personOf(auth), note, now()),
        (acked) => ({ ...ackEntry(acked, note), ...byUser(auth) }),
      );
      deps.alertWork.kick();
      return reply(c, acknowledgeAlarm, alarmAnswer(done, auth.user.temperatureScale));
    });
}
