import { useStore } from "@nanostores/react";
import type { Tag } from "../../src/api/tags.ts";
import { $tagDelete, removeTag } from "../../src/stores/tags.ts";
import { BusyButton } from "../ui/BusyButton.tsx";
import { Dialog } from "../ui/Dialog.tsx";
import { FormErrors } from "../ui/Field.tsx";

interface Props {
  tag: Tag | null;
  onClose: () => void;
}

const devices = (n: number) => `${n} device${n === 1 ? "" : "s"}`;

/** Asks before deleting a tag: it comes off every device that carries it. */
export function DeleteTagDialog({ tag, onClose }: Props) {
  const state = useStore($tagDelete);
  const confirm = async () => {
    if (tag && (await removeTag(tag.id))) onClose();
  };
  return (
    <Dialog
      title="Delete tag"
      open={tag !== null}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="secondary" onClick={onClose}>
            Cancel
          </button>
          <BusyButton type="button" busy={state.busy} busyLabel="Deleting..." onClick={() => void confirm()}>
            Delete
          </BusyButton>
        </>
      }
    >
      {tag && (
        <p>
          Delete the tag <strong>{tag.name}</strong>?{" "}
          {tag.deviceCount
            ? `It comes off the ${devices(tag.deviceCount)} that ${tag.deviceCount === 1 ? "carries" : "carry"} it.`
            : "No device carries it."}{" "}
          This cannot be undone.
        </p>
      )}
      <FormErrors messages={state.errors.map((e) => e.message)} />
    </Dialog>
  );
}
