import { useState } from "react";
import { fieldError } from "../src/stores/http.ts";
import { Field } from "./ui/Field.tsx";
import { TokenForm } from "./ui/TokenForm.tsx";

/** /gateway/reset-password?token=: choose a new password from the emailed link. */
export default function ResetPasswordPage() {
  const [password, setPassword] = useState("");
  return (
    <TokenForm
      title="Choose a new password"
      checkPath="/gateway/reset-password/check"
      submitPath="/gateway/reset-password"
      submitLabel="Save password"
      fields={{ password }}
      fieldNames={["password"]}
    >
      {(errors) => (
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldError(errors, "password")}
          hint="At least 10 characters."
          autoFocus
        />
      )}
    </TokenForm>
  );
}
