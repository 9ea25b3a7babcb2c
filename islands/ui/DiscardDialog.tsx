import { Dialog } from "./Dialog.tsx";

/** The question an editor asks before unsaved changes are thrown away. */
export const DISCARD_QUESTION = "Discard unsaved changes?";

/**
 * Asks before an editor with unsaved changes is left: Discard leaves, Keep editing (or
 * Escape, or its close button) goes back to the form as it was.
 */
export function DiscardDialog({
  open,
  onKeep,
  onDiscard,
}: {
  open: boolean;
  onKeep: () => void;
  onDiscard: () => void;
}) {
  return (
    <Dialog
      title={DISCARD_QUESTION}
      open={open}
      onClose={onKeep}
      footer={
        <>
          <button type="button" className="secondary" onClick={onKeep}>
            Keep editing
          </button>
          <button type="button" onClick={onDiscard}>
            Discard
          </button>
        </>
      }
    >
      <p>The changes made here are lost when the editor closes.</p>
    </Dialog>
  );
}
