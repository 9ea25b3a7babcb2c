import { useState } from "react";
import { fieldError } from "../src/stores/http.ts";
import { Field } from "./ui/Field.tsx";
import { TokenForm } from "./ui/TokenForm.tsx";

/** /user/validate?token=: the registration link; name and password, then signed in. */
export default function ValidatePage() {
  const [f, setF] = useState({ firstName: "", lastName: "", password: "" });
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) =>
    setF({ ...f, [k]: e.target.value });
  return (
    <TokenForm
      title="Validate your account"
      checkPath="/user/validate/check"
      submitPath="/user/validate"
      submitLabel="Create account"
      fields={f}
      fieldNames={["firstName", "lastName", "password"]}
    >
      {(errors, info) => (
        <>
          <p className="muted">{info["email"]}</p>
          <Field
            label="First name"
            autoComplete="given-name"
            value={f.firstName}
            onChange={set("firstName")}
            error={fieldError(errors, "firstName")}
            autoFocus
          />
          <Field
            label="Last name"
            autoComplete="family-name"
            value={f.lastName}
            onChange={set("lastName")}
            error={fieldError(errors, "lastName")}
          />
          <Field
            label="Password"
            type="password"
            autoComplete="new-password"
            value={f.password}
            onChange={set("password")}
            error={fieldError(errors, "password")}
            hint="At least 10 characters."
          />
        </>
      )}
    </TokenForm>
  );
}
