import type { Rule } from "../../src/api/alerts.ts";
import { Dialog } from "../ui/Dialog.tsx";
import { DiscardDialog } from "../ui/DiscardDialog.tsx";
import { useUnsaved } from "../ui/useUnsaved.ts";
import { RuleForm } from "./RuleForm.tsx";

/**
 * A rule's editor: what it watches (a device's channel, or a tag's devices), when (the
 * condition, in the person's scale), how long first (delay, readings in a row), and whom it
 * tells (the person, other addresses, webhooks; repeats and one escalation tier). Leaving it
 * with unsaved changes asks first (a newcomer's review: on a phone the form is two screens long).
 */
export function RuleDialog({ rule, onClose }: { rule: Rule | "new" | null; onClose: () => void }) {
  const unsaved = useUnsaved(rule !== null, onClose);
  return (
    <>
      {/* Before the editor: closing both at once gives the focus back to the editor's opener. */}
      <DiscardDialog open={unsaved.asking} onKeep={unsaved.keep} onDiscard={unsaved.discard} />
      <Dialog
        title={rule === "new" ? "New alert rule" : "Edit alert rule"}
        open={rule !== null}
        onClose={onClose}
        mayClose={unsaved.mayLeave}
      >
        {rule !== null && (
          <RuleForm
            rule={rule === "new" ? null : rule}
            onSaved={onClose}
            onLeave={unsaved.leave}
            onDirty={unsaved.setDirty}
          />
        )}
      </Dialog>
    </>
  );
}
