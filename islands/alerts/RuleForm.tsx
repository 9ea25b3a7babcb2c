import { useStore } from "@nanostores/react";
import { deadBandHint } from "../../src/domain/deadBandHint.ts";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { CHANNEL_KINDS, type Rule, type RuleInput } from "../../src/api/alerts.ts";
import {
  $alertPrefs,
  $pickChannels,
  $pickDevices,
  $pickTags,
  $ruleForm,
  draftOf,
  loadChannels,
  loadPickers,
  saveRule,
} from "../../src/stores/alerts.ts";
import { DialogActions } from "../ui/Dialog.tsx";
import { Cell, isThreshold, SignedCell, KINDS, num, Picker, shownBeside, type Kind } from "./ruleParts.tsx";
import { NotifyFieldset, useNotifyFields } from "./RuleNotify.tsx";
import { BusyButton } from "../ui/BusyButton.tsx";
import { FormErrors } from "../ui/Field.tsx";

export interface FormProps {
  rule: Rule | null;
  onSaved: () => void;
  /** Close: asks first when something changed. */
  onLeave: () => void;
  onDirty: (dirty: boolean) => void;
}

/**
 * The rule editor's form: what it watches (a device's channel, or a tag's devices), when (the
 * condition, in the person's scale), how long first (delay, readings in a row), and whom it
 * tells. It tells its dialog whether it holds anything unsaved.
 */
export function RuleForm({ rule, onSaved, onLeave, onDirty }: FormProps) {
  const prefs = useStore($alertPrefs);
  const form = useStore($ruleForm);
  const devices = useStore($pickDevices);
  const tags = useStore($pickTags);
  const channels = useStore($pickChannels);
  const start = draftOf(rule, prefs.scale, prefs.userId);
  const c0 = start.condition;
  const [name, setName] = useState(start.name);
  const [severity, setSeverity] = useState(start.severity);
  const [kind, setKind] = useState<Kind>(c0.type);
  const [deviceId, setDeviceId] = useState<string>(String(rule?.deviceId ?? rule?.channelDeviceId ?? ""));
  const [channelKey, setChannelKey] = useState(start.channelKey ?? "");
  const [tagId, setTagId] = useState(start.tagId ? String(start.tagId) : "");
  const [channelKind, setChannelKind] = useState(start.channelKind ?? "temperature");
  const [low, setLow] = useState(
    "low" in c0 && c0.low !== null && c0.low !== undefined ? String(c0.low) : "",
  );
  const [high, setHigh] = useState(
    "high" in c0 && c0.high !== null && c0.high !== undefined ? String(c0.high) : "",
  );
  const [deadBand, setDeadBand] = useState("deadBand" in c0 ? String(c0.deadBand) : "0");
  const [grace, setGrace] = useState("graceSeconds" in c0 ? String(Math.round(c0.graceSeconds / 60)) : "5");
  const [delay, setDelay] = useState(String(Math.round(start.delaySeconds / 60)));
  const [readings, setReadings] = useState(String(start.delayReadings));
  const notified = useNotifyFields(start, prefs);
  const scale = rule ? c0.scale : prefs.scale;

  useEffect(() => {
    void loadPickers();
  }, []);
  useEffect(() => {
    if (deviceId) void loadChannels(Number(deviceId));
  }, [deviceId]);

  const errorOf = (field: string) => form.errors.find((e) => e.field === field)?.message;
  // A refused save shows where: the first field named wrong (or the messages) is scrolled to and
  // focused, since on a phone it sits a screen above the Save button (a newcomer's review).
  const box = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (form.busy || !form.errors.length) return;
    const first =
      box.current?.querySelector<HTMLElement>("[aria-invalid='true']") ??
      box.current?.querySelector<HTMLElement>("[role='alert']");
    first?.scrollIntoView({ block: "center" });
    first?.focus();
  }, [form.errors, form.busy]);
  const shownChannels = channels && String(channels.deviceId) === deviceId ? channels.list : [];

  /** The rule as the form holds it now. */
  const draftNow = (): RuleInput => {
    const threshold = isThreshold(kind);
    const condition: RuleInput["condition"] = {
      type: kind,
      low: threshold && kind !== "above" ? num(low) : null,
      high: threshold && kind !== "below" ? num(high) : null,
      scale,
      deadBand: threshold ? (num(deadBand) ?? 0) : 0,
      graceSeconds: Math.round((num(grace) ?? 0) * 60),
    };
    const byTag = tagId !== "" && !channelKey;
    const draft = {
      name,
      severity,
      channelKey: threshold && !byTag && channelKey ? channelKey : null,
      deviceId: !threshold && deviceId && !tagId ? Number(deviceId) : null,
      tagId: byTag ? Number(tagId) : null,
      channelKind: threshold && byTag ? channelKind : null,
      condition,
      delaySeconds: Math.round((num(delay) ?? 0) * 60),
      delayReadings: num(readings) ?? 1,
      ...notified.draft(),
      paused: start.paused,
      tagIds: start.tagIds,
    };
    return draft as RuleInput;
  };
  // Changed is what differs from the form as it opened, so typing a value back is unchanged.
  const now = JSON.stringify(draftNow());
  const [opened] = useState(now);
  const dirty = now !== opened;
  useEffect(() => onDirty(dirty), [dirty, onDirty]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void saveRule(draftNow(), rule?.id ?? null).then((ok) => ok && onSaved());
  };

  return (
    <form onSubmit={submit} className="rule-form" noValidate ref={box}>
      <Cell
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errorOf("name")}
        required
      />
      <div className="grid">
        <Picker label="Condition" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
          {KINDS.map(([k, text]) => (
            <option key={k} value={k}>
              {text}
            </option>
          ))}
        </Picker>
        <Picker
          label="Severity"
          value={severity}
          onChange={(e) => setSeverity(e.target.value as typeof severity)}
        >
          <option value="critical">Critical (never held by quiet hours)</option>
          <option value="warning">Warning</option>
          <option value="info">Info</option>
        </Picker>
      </div>
      <fieldset>
        <legend>Watches</legend>
        <div className="grid">
          <Picker
            label="Device"
            value={deviceId}
            aria-invalid={
              errorOf("deviceId") || (errorOf("channelKey") && !(isThreshold(kind) && deviceId))
                ? true
                : undefined
            }
            aria-describedby="rule-channel-note"
            onChange={(e) => {
              setDeviceId(e.target.value);
              setChannelKey("");
              if (e.target.value) setTagId("");
            }}
          >
            <option value="">{isThreshold(kind) ? "Choose a device" : "Every device"}</option>
            {devices.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </Picker>
          {isThreshold(kind) && (
            <Picker
              label="Channel"
              value={channelKey}
              onChange={(e) => setChannelKey(e.target.value)}
              aria-invalid={errorOf("channelKey") ? true : undefined}
              aria-describedby="rule-channel-note"
            >
              <option value="">{deviceId ? "Choose a channel" : "Choose a device first"}</option>
              {shownChannels.map((ch) => (
                <option key={ch.channelKey} value={ch.channelKey}>
                  {ch.name}
                </option>
              ))}
            </Picker>
          )}
        </div>
        <div className="grid">
          <Picker
            label="Or every device tagged"
            value={tagId}
            onChange={(e) => {
              setTagId(e.target.value);
              if (e.target.value) {
                setDeviceId("");
                setChannelKey("");
              }
            }}
          >
            <option value="">No tag</option>
            {tags.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </Picker>
          {isThreshold(kind) && tagId && (
            <Picker
              label="Channels of kind"
              value={channelKind}
              onChange={(e) => setChannelKind(e.target.value as typeof channelKind)}
            >
              {CHANNEL_KINDS.map((k) => (
                <option key={k} value={k}>
                  {k.replace("_", " ")}
                </option>
              ))}
            </Picker>
          )}
        </div>
        <small id="rule-channel-note">
          {errorOf("channelKey") ?? errorOf("tagId") ?? errorOf("deviceId")}
        </small>
      </fieldset>
      {isThreshold(kind) && (
        <div className="grid">
          {kind !== "above" && (
            <SignedCell
              label={`Low limit (°${scale} for temperatures)`}
              inputMode="decimal"
              value={low}
              onChange={(e) => setLow(e.target.value)}
              error={errorOf("condition.low")}
            />
          )}
          {kind !== "below" && (
            <SignedCell
              label={`High limit (°${scale} for temperatures)`}
              inputMode="decimal"
              value={high}
              onChange={(e) => setHigh(e.target.value)}
              error={errorOf("condition.high")}
            />
          )}
          <Cell
            label="Dead band"
            hint={deadBandHint(kind, low, high, deadBand, "")}
            inputMode="decimal"
            value={deadBand}
            onChange={(e) => setDeadBand(e.target.value)}
            error={errorOf("condition.deadBand")}
          />
        </div>
      )}
      {kind === "offline" && (
        <Cell
          label="Grace (minutes past the push interval)"
          inputMode="numeric"
          value={grace}
          onChange={(e) => setGrace(e.target.value)}
          error={errorOf("condition.graceSeconds")}
        />
      )}
      <div className="grid">
        <Cell
          label="Delay (minutes the condition must hold)"
          inputMode="numeric"
          value={delay}
          onChange={(e) => setDelay(e.target.value)}
          error={errorOf("delaySeconds")}
        />
        {isThreshold(kind) && (
          <Cell
            label="Readings in a row"
            inputMode="numeric"
            value={readings}
            onChange={(e) => setReadings(e.target.value)}
            error={errorOf("delayReadings")}
          />
        )}
      </div>
      <NotifyFieldset fields={notified} errors={form.errors} />
      <FormErrors messages={form.errors.filter((e) => !shownBeside(e.field)).map((e) => e.message)} />
      <DialogActions onClose={onLeave}>
        <BusyButton busy={form.busy} busyLabel="Saving...">
          Save rule
        </BusyButton>
      </DialogActions>
    </form>
  );
}
