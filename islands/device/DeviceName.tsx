import { useStore } from "@nanostores/react";
import { useState, type KeyboardEvent } from "react";
import { $rename, renameDevice } from "../../src/stores/deviceName.ts";
import { Pencil } from "./icons.ts";

/** The editable title's smallest width (spec section 9). */
const MIN_WIDTH = 200;

/**
 * The device's name as an editable title (spec section 4): Enter or leaving the field saves a
 * trimmed, non-empty, changed name; Escape puts the saved name back. The page's heading
 * carries the name for screen readers and the outline.
 */
export function DeviceName({ name }: { name: string }) {
  const [draft, setDraft] = useState(name);
  const [shown, setShown] = useState(name);
  const rename = useStore($rename);
  const error = rename.errors[0]?.message;
  // A saved name (or one a live refresh brought) replaces the draft.
  if (shown !== name) {
    setShown(name);
    setDraft(name);
  }
  // "Saved" once a new name is stored: Enter leaves the field, so the focus cannot say it.
  const [saved, setSaved] = useState(false);
  const save = async () => {
    const done = await renameDevice(draft);
    setDraft(done.name);
    setSaved(done.saved);
  };
  const keys = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter") {
      e.preventDefault();
      e.currentTarget.blur();
    } else if (e.key === "Escape") {
      e.preventDefault();
      setDraft(name);
      $rename.set({ busy: false, errors: [] });
    }
  };
  return (
    <div className="device-title">
      <h1 id="device-name" className="visually-hidden">
        {name}
      </h1>
      {/* Reads as the page's title; the pencil and the border on hover or focus say it edits. */}
      <label className="device-title-edit">
        {/* A text area of one line that wraps: a long name stays whole on a phone. Enter saves, so
            it never holds a line break; a pasted one becomes a space. */}
        <textarea
          rows={1}
          aria-label="Device name"
          value={draft}
          style={{ minWidth: MIN_WIDTH }}
          cols={Math.max(draft.length, 10)}
          onChange={(e) => {
            setSaved(false);
            setDraft(e.target.value.replace(/[\r\n]+/g, " "));
          }}
          onKeyDown={keys}
          onBlur={() => void save()}
          aria-busy={rename.busy || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "device-name-error" : undefined}
        />
        <Pencil aria-hidden="true" size="1.1em" className="device-title-pencil" />
      </label>
      {error && (
        <small id="device-name-error" role="alert" className="form-error">
          {error}
        </small>
      )}
      <small role="status" className="muted">
        {saved && !error ? "Name saved." : ""}
      </small>
    </div>
  );
}
