import { useStore } from "@nanostores/react";
import { useState, type KeyboardEvent } from "react";
import type { Tag } from "../../src/api/tags.ts";
import { $tagRowErrors, $tagSaved, renameTag } from "../../src/stores/tags.ts";

/**
 * A tag's name as an editable title (spec section 4): Enter or leaving the field saves a
 * non-empty, changed name (trimmed); Escape puts the saved name back.
 */
export function TagNameInput({ tag }: { tag: Tag }) {
  const [draft, setDraft] = useState(tag.name);
  const [shown, setShown] = useState(tag.name);
  const errors = useStore($tagRowErrors);
  const error = errors[String(tag.id)];
  const saved = useStore($tagSaved) === tag.id;
  // A rename saved (or made elsewhere) shows once the list has it.
  if (shown !== tag.name) {
    setShown(tag.name);
    setDraft(tag.name);
  }
  const save = async () => {
    if (!(await renameTag(tag.id, draft))) return;
    if (draft.trim() === "") setDraft(tag.name);
  };
  const keys = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") {
      e.preventDefault();
      e.currentTarget.blur();
    } else if (e.key === "Escape") {
      e.preventDefault();
      setDraft(tag.name);
      $tagRowErrors.setKey(String(tag.id), undefined);
    }
  };
  const noteId = `tag-${tag.id}-error`;
  return (
    <div className="tag-name">
      <input
        type="text"
        aria-label={`Name of tag ${tag.name}`}
        value={draft}
        onChange={(e) => {
          setDraft(e.target.value);
          if (saved) $tagSaved.set(null);
        }}
        onKeyDown={keys}
        onBlur={() => void save()}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? noteId : undefined}
      />
      {error && (
        <small id={noteId} role="alert">
          {error}
        </small>
      )}
      {/* Always in the page, so a screen reader hears the word when it appears. */}
      <small role="status" className="tag-saved">
        {saved && !error ? "Saved" : ""}
      </small>
    </div>
  );
}
