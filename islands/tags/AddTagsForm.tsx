import { useStore } from "@nanostores/react";
import { useState, type FormEvent } from "react";
import { fieldError } from "../../src/api/errors.ts";
import { $newTags, addTags } from "../../src/stores/tags.ts";
import { BusyButton } from "../ui/BusyButton.tsx";
import { Field } from "../ui/Field.tsx";

/** New tags, one or several at once (POST /api/v1/tags/bulk/). */
export function AddTagsForm() {
  const form = useStore($newTags);
  const [names, setNames] = useState("");
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await addTags(names)) setNames("");
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="add-tags" aria-label="Add tags">
      <Field
        label="New tags"
        name="names"
        value={names}
        onChange={(e) => setNames(e.target.value)}
        hint="Separate several names with commas."
        error={fieldError(form.errors, "names") ?? form.errors[0]?.message}
      />
      <BusyButton busy={form.busy} busyLabel="Adding...">
        Add tags
      </BusyButton>
    </form>
  );
}
