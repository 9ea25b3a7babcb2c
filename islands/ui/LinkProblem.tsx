import type { FieldError } from "../../src/api/errors.ts";
import { LINK_INVALID } from "../../src/domain/auth.ts";
import { FormErrors } from "./Field.tsx";

const REQUEST = "Request a new one";

/**
 * Why an emailed link cannot be used. The spec's "This link is invalid or has expired.
 * Request a new one." keeps its words; "Request a new one" links to where a new link is had.
 */
export function LinkProblem({ errors, requestHref }: { errors: FieldError[]; requestHref: string }) {
  const messages = errors.map((e) => e.message);
  const [before, after] = LINK_INVALID.split(REQUEST);
  if (!messages.includes(LINK_INVALID) || after === undefined) return <FormErrors messages={messages} />;
  const others = messages.filter((m) => m !== LINK_INVALID);
  return (
    <p role="alert" className="form-error">
      {before}
      <a href={requestHref}>{REQUEST}</a>
      {after}
      {others.map((m) => ` ${m}`)}
    </p>
  );
}
