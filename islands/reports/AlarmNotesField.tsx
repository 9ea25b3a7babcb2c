import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { $alarmNotes, loadAlarmNotes, setAlarmNotes } from "../../src/stores/reportAlarmNotes.ts";

/**
 * The report's choice to show, on its public page, PDF and picture, the note an alarm was
 * acknowledged with and the names of who acknowledged and who commented (off: that it was
 * acknowledged, and the comments, only).
 */
export function AlarmNotesField({ reportId }: { reportId: number | null }) {
  const { show, error } = useStore($alarmNotes);
  useEffect(() => void loadAlarmNotes(reportId), [reportId]);
  return (
    <fieldset>
      <label>
        <input
          type="checkbox"
          role="switch"
          checked={show}
          aria-describedby="alarm-notes-hint"
          onChange={(e) => setAlarmNotes(e.target.checked)}
        />
        Show alarm notes and names on the public report
      </label>
      <small id="alarm-notes-hint">
        Visitors always see when an alarm was raised, acknowledged and cleared, and your comments.
      </small>
      {error && <p role="alert">{error}</p>}
    </fieldset>
  );
}
