import { useStore } from "@nanostores/react";
import { useLayoutEffect, useRef, type FormEvent } from "react";
import { fieldError, generalErrors } from "../../src/api/errors.ts";
import { GRANT_ACCESS_MESSAGES } from "../../src/api/grantAccess.ts";
import {
  $grantDialog,
  $grantForm,
  closeGrantDialog,
  federated,
  GRANT_LABEL,
  submitGrant,
} from "../../src/stores/share.ts";
import { BusyButton } from "../ui/BusyButton.tsx";
import { Dialog, DialogActions } from "../ui/Dialog.tsx";
import { Field, FormErrors } from "../ui/Field.tsx";
import { Form } from "../ui/Form.tsx";

/**
 * Grant Account Access (spec sections 2 and 6): an email address and Send; then 'Invite sent
 * to {email}'. A federated subscription grants access through its identity provider only,
 * so its dialog says that instead of asking for an address. Once sent, the Send Invite button
 * that had the focus is gone: the message takes it, and closing gives it back to Share.
 */
export function GrantAccessDialog() {
  const { open, sent } = useStore($grantDialog);
  const form = useStore($grantForm);
  const sentNote = useRef<HTMLParagraphElement>(null);
  useLayoutEffect(() => {
    if (sent) sentNote.current?.focus();
  }, [sent]);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void submitGrant(String(new FormData(e.currentTarget).get("emailAddress") ?? ""));
  };
  const body = federated() ? (
    <p role="status">{GRANT_ACCESS_MESSAGES.federated}</p>
  ) : sent ? (
    <p role="status" className="grant-sent" tabIndex={-1} ref={sentNote}>
      {sent}
    </p>
  ) : (
    <Form id="grant-access-form" onSubmit={submit} aria-label={GRANT_LABEL}>
      <p>
        Someone who already has an account joins this one now; anyone else is emailed an invitation to
        register.
      </p>
      <FormErrors messages={generalErrors(form.errors, ["emailAddress"])} />
      <Field
        label="Email Address"
        type="email"
        name="emailAddress"
        autoComplete="off"
        required
        error={fieldError(form.errors, "emailAddress")}
      />
    </Form>
  );
  return (
    <Dialog
      title={GRANT_LABEL}
      open={open}
      onClose={closeGrantDialog}
      footer={
        <DialogActions onClose={closeGrantDialog}>
          {!federated() && !sent && (
            <BusyButton form="grant-access-form" busy={form.busy} busyLabel="Sending...">
              Send Invite
            </BusyButton>
          )}
        </DialogActions>
      }
    >
      {body}
    </Dialog>
  );
}
