import { useStore } from "@nanostores/react";
import { useState } from "react";
import type { Tag } from "../../src/api/tags.ts";
import { $session } from "../../src/stores/session.ts";
import { $tags, loadTags, sessionMay } from "../../src/stores/tags.ts";
import { EmptyState } from "../ui/EmptyState.tsx";
import { AddTagsForm } from "./AddTagsForm.tsx";
import { DeleteTagDialog } from "./DeleteTagDialog.tsx";
import { DeviceTags } from "./DeviceTags.tsx";
import { TagNameInput } from "./TagNameInput.tsx";
import "./tags.css";

const devices = (n: number) => `${n} device${n === 1 ? "" : "s"}`;

/**
 * /s/guidance/tags: the subscription's tags, each with its device count. Administrators and
 * Managers add, rename (Enter or blur saves, Escape reverts) and delete (after a question);
 * everyone else sees the list read-only.
 */
export default function TagsPage() {
  useStore($session);
  const editable = sessionMay("tag.create");
  return (
    <section className="tags-page">
      <h1>Tags</h1>
      <p className="muted">Tags group your devices; filter the device list by them.</p>
      {editable && <AddTagsForm />}
      <TagTable editable={editable} />
      <h2>Devices</h2>
      <DeviceTags editable={sessionMay("tag.apply")} />
    </section>
  );
}

function TagTable({ editable }: { editable: boolean }) {
  const state = useStore($tags);
  const [deleting, setDeleting] = useState<Tag | null>(null);
  if (state.status === "loading") return <p aria-busy="true">Loading tags...</p>;
  if (state.status === "failed")
    return (
      <p role="alert" className="form-error">
        Tags could not be loaded: {state.message}{" "}
        <button type="button" className="secondary outline" onClick={() => void loadTags()}>
          Try again
        </button>
      </p>
    );
  if (!state.list.length)
    return <EmptyState title="No tags yet" text="Tags you add show here with the devices that carry them." />;
  return (
    <>
      <ul className="tag-rows" aria-label="Tags">
        {state.list.map((tag) => (
          <li key={tag.id}>
            {editable ? <TagNameInput tag={tag} /> : <strong>{tag.name}</strong>}
            <span className="muted">{devices(tag.deviceCount)}</span>
            {editable && (
              <button
                type="button"
                className="secondary outline"
                aria-label={`Delete tag ${tag.name}`}
                onClick={() => setDeleting(tag)}
              >
                Delete
              </button>
            )}
          </li>
        ))}
      </ul>
      {editable && <DeleteTagDialog tag={deleting} onClose={() => setDeleting(null)} />}
    </>
  );
}
