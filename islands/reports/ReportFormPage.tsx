import { getPagePath, openPage } from "@nanostores/router";
import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import type { ChannelOption } from "../../src/api/reportBuilder.ts";
import {
  $channelOptions,
  $draft,
  $draftLoad,
  $reportForm,
  editDraft,
  saveReport,
  startEditReport,
  startNewReport,
} from "../../src/stores/reports.ts";
import { $reportPrefs } from "../../src/stores/reportList.ts";
import { $router } from "../../src/stores/router.ts";
import { BusyButton } from "../ui/BusyButton.tsx";
import { Field, FormErrors } from "../ui/Field.tsx";
import { Form } from "../ui/Form.tsx";
import { ChannelPicker } from "./ChannelPicker.tsx";
import { MktField } from "./MktField.tsx";
import { ReportSchedules } from "./ReportSchedules.tsx";
import { ThresholdList } from "./ThresholdList.tsx";
import { VisitorSettings } from "./VisitorSettings.tsx";
import { WindowFields } from "./WindowFields.tsx";
import { AlarmNotesField } from "./AlarmNotesField.tsx";
import { saveAlarmNotes } from "../../src/stores/reportAlarmNotes.ts";
import "./reports.css";

/** /s/reports/new and /s/reports/{id}: the report form (Administrators and Managers). */
export default function ReportFormPage() {
  const page = useStore($router);
  const id = page?.route === "reportEdit" ? Number(page.params.id) : null;
  const options = useStore($channelOptions);
  const load = useStore($draftLoad);
  const { editable } = useStore($reportPrefs);
  const ready = options.status === "ready" ? options.value : null;
  useEffect(() => {
    if (id === null) startNewReport();
    else if (ready) void startEditReport(id, ready);
  }, [id, ready]);
  const title = id === null ? "New report" : "Edit report";
  if (!editable)
    return (
      <section className="report-form-page">
        <h1>{title}</h1>
        <p role="alert">Only Administrators and Managers change reports.</p>
        <a href={getPagePath($router, "reports")}>Back to reports</a>
      </section>
    );
  const failed =
    options.status === "failed" ? options.message : load.status === "failed" ? load.message : null;
  return (
    <section className="report-form-page">
      <h1>{title}</h1>
      {failed && <p role="alert">{failed}</p>}
      {!failed && (!ready || load.status === "loading") && <p aria-busy="true">Loading...</p>}
      {!failed && ready && load.status === "ready" && <ReportForm options={ready} />}
      {!failed && id !== null && <VisitorSettings reportId={id} />}
      {id !== null && <ReportSchedules reportId={id} />}
    </section>
  );
}

function ReportForm({ options }: { options: ChannelOption[] }) {
  const draft = useStore($draft);
  const form = useStore($reportForm);
  const error = (field: string) => form.errors.find((e) => e.field === field)?.message;
  const general = form.errors.filter(
    (e) => e.field === null || e.field === "channels" || e.field === "thresholds",
  );
  const submit = async () => {
    const saved = await saveReport(options);
    if (saved !== null && (await saveAlarmNotes(saved))) openPage($router, "reports");
  };
  return (
    <Form
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Field
        label="Report name"
        value={draft.name}
        maxLength={100}
        error={error("name")}
        onChange={(e) => editDraft("name", e.target.value)}
      />
      <WindowFields errors={form.errors} />
      <ChannelPicker options={options} />
      <ThresholdList options={options} errors={form.errors} />
      <AlarmNotesField reportId={draft.id} />
      <MktField errors={form.errors} />
      <FormErrors messages={general.map((e) => e.message)} />
      <div className="report-form-actions">
        <a role="button" className="secondary outline" href={getPagePath($router, "reports")}>
          Cancel
        </a>
        <BusyButton busy={form.busy} busyLabel="Saving...">
          Save report
        </BusyButton>
      </div>
    </Form>
  );
}
