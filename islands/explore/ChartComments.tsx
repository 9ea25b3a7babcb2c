import { useStore } from "@nanostores/react";
import type { FormEvent } from "react";
import { MAX_COMMENT } from "../../src/api/chartMarks.ts";
import { markTitle, type ChartMark } from "../../src/domain/chartMarks.ts";
import {
  $commentDraft,
  $commentForm,
  $exploreMarks,
  $mayComment,
  pinComment,
  removeComment,
} from "../../src/stores/exploreMarks.ts";
import { BusyButton } from "../ui/BusyButton.tsx";
import { Field, FormErrors } from "../ui/Field.tsx";
import "./chartComments.css";

/**
 * Under the explore chart: its alarms and comments in words (what the chart's lines mean), and
 * for Administrators and Managers a form that pins a comment to a time (clicked on the chart
 * or typed) on this channel, with a Delete beside each comment.
 */
export function ChartComments({
  channelKey,
  marks,
  zone,
}: {
  channelKey: string;
  marks: readonly ChartMark[];
  zone: string;
}) {
  const may = useStore($mayComment);
  const { comments } = useStore($exploreMarks);
  const draft = useStore($commentDraft);
  const form = useStore($commentForm);
  const error = (field: string) => form.errors.find((e) => e.field === field)?.message;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void pinComment(channelKey);
  };
  const commentAt = (m: ChartMark) =>
    m.kind === "comment" ? comments.find((c) => c.id === m.id) : undefined;
  return (
    <section className="chart-comments" aria-labelledby="chart-comments-title">
      <h2 id="chart-comments-title">Alarms and comments</h2>
      {marks.length ? (
        <ul>
          {marks.map((m, i) => {
            const comment = commentAt(m);
            return (
              <li key={i} className={`chart-mark ${m.kind}`}>
                {markTitle(m, zone)}{" "}
                {may && comment && (
                  <button
                    type="button"
                    className="secondary outline"
                    onClick={() => void removeComment(comment.id)}
                  >
                    Delete
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="muted">No alarms or comments in this range.</p>
      )}
      {may && (
        <form noValidate onSubmit={submit} aria-label="Pin a comment">
          <Field
            label={`Time (${zone}); or click the chart`}
            type="datetime-local"
            value={draft.at}
            error={error("at")}
            onChange={(e) => $commentDraft.setKey("at", e.target.value)}
          />
          <Field
            label="Comment"
            value={draft.text}
            maxLength={MAX_COMMENT}
            placeholder="door open for delivery"
            error={error("text")}
            onChange={(e) => $commentDraft.setKey("text", e.target.value)}
          />
          <FormErrors
            messages={form.errors.filter((e) => e.field !== "at" && e.field !== "text").map((e) => e.message)}
          />
          <BusyButton busy={form.busy} busyLabel="Saving...">
            Pin comment
          </BusyButton>
        </form>
      )}
    </section>
  );
}
