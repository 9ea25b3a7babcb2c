import { useStore } from "@nanostores/react";
import { useLayoutEffect, type FormEvent } from "react";
import type { EntityTags } from "../../src/api/tags.ts";
import { $session } from "../../src/stores/session.ts";
import {
  $canCreate,
  $tagApply,
  $tagCreate,
  $tagDialog,
  $tagRows,
  applyTagChanges,
  createTagFromQuery,
  openTagDialog,
  pressTag,
  setTagQuery,
  type TagTarget,
} from "../../src/stores/tagDialog.ts";
import { $tags, loadTags, sessionMay } from "../../src/stores/tags.ts";
import { BusyButton } from "../ui/BusyButton.tsx";
import { Dialog } from "../ui/Dialog.tsx";
import { FormErrors } from "../ui/Field.tsx";
import { TriStateBox } from "./TriStateBox.tsx";
import "./tags.css";
import { appPath } from "../../src/domain/appPaths.ts";

/** Where the Manage link goes: the subscription's tags. */
export const MANAGE_TAGS_PATH = appPath("tags");

export type UpdateTagsProps = TagTarget & {
  open: boolean;
  onClose: () => void;
  /** After Apply Changes succeeded: each entity's tags now. */
  onApplied?: (entities: EntityTags[]) => void;
};

/**
 * Update Tags (spec sections 2, 4, 5): search by prefix, tri-state boxes, Create tag for
 * Administrators and Managers, the Manage link, and Apply Changes sending the chosen and
 * removed lists. Opened from the device header (and the tags page's device rows).
 */
export default function UpdateTagsDialog({ open, onClose, onApplied, ...target }: UpdateTagsProps) {
  const apply = useStore($tagApply);
  useLayoutEffect(() => {
    if (open) openTagDialog(target);
    // The target is read as the dialog opens; a new one comes with the next opening.
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
  const submit = async () => {
    const entities = await applyTagChanges();
    if (!entities) return;
    onApplied?.(entities);
    onClose();
  };
  return (
    <Dialog
      title="Update Tags"
      open={open}
      onClose={onClose}
      footer={
        <div className="tag-dialog-actions">
          <a href={MANAGE_TAGS_PATH}>Manage</a>
          <BusyButton type="button" busy={apply.busy} busyLabel="Applying..." onClick={() => void submit()}>
            Apply Changes
          </BusyButton>
        </div>
      }
    >
      <TagSearch />
      <TagChoices />
      <FormErrors messages={apply.errors.map((e) => e.message)} />
    </Dialog>
  );
}

/** The search box; for Administrators and Managers also Create tag (Enter creates too). */
function TagSearch() {
  const { query } = useStore($tagDialog);
  const canCreate = useStore($canCreate);
  const create = useStore($tagCreate);
  useStore($session);
  const mayCreate = sessionMay("tag.create");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (mayCreate && canCreate) void createTagFromQuery();
  };
  return (
    <form onSubmit={submit} className="tag-search" noValidate>
      <input
        type="search"
        aria-label="Search tags"
        placeholder={mayCreate ? "Find or add a tag" : "Find a tag"}
        value={query}
        onChange={(e) => setTagQuery(e.target.value)}
        aria-describedby={create.errors.length ? "tag-create-error" : undefined}
      />
      {mayCreate && (
        <BusyButton busy={create.busy} busyLabel="Creating..." disabled={!canCreate} className="secondary">
          Create tag
        </BusyButton>
      )}
      {create.errors[0] && (
        <p id="tag-create-error" role="alert" className="form-error">
          {create.errors[0].message}
        </p>
      )}
    </form>
  );
}

/** The tags matching the search, each with its box. */
function TagChoices() {
  const tags = useStore($tags);
  const rows = useStore($tagRows);
  const { query } = useStore($tagDialog);
  const canCreate = useStore($canCreate);
  if (tags.status === "loading") return <p aria-busy="true">Loading tags...</p>;
  if (tags.status === "failed")
    return (
      <p role="alert" className="form-error">
        Tags could not be loaded.{" "}
        <button type="button" className="secondary outline" onClick={() => void loadTags()}>
          Try again
        </button>
      </p>
    );
  return (
    <fieldset className="tag-choices">
      <legend className="visually-hidden">Tags</legend>
      {rows.length === 0 && (
        <p className="muted">
          {tags.list.length ? `No tag starts with “${query.trim()}”.` : "No tags yet."}
          {canCreate && sessionMay("tag.create") && " Create tag adds it."}
        </p>
      )}
      {rows.map(({ tag, state }) => (
        <TriStateBox key={tag.id} label={tag.name} state={state} onPress={() => pressTag(tag.id)} />
      ))}
    </fieldset>
  );
}
