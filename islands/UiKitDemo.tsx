import { useState, type FormEvent } from "react";
import { cents, epochSeconds } from "../src/domain/brand.ts";
import { Currency } from "../src/domain/enums.ts";
import { BusyButton } from "./ui/BusyButton.tsx";
import { DateText } from "./ui/DateText.tsx";
import { Dialog } from "./ui/Dialog.tsx";
import { EmptyState } from "./ui/EmptyState.tsx";
import { ErrorBanner } from "./ui/ErrorBanner.tsx";
import { Money } from "./ui/Money.tsx";
import { StatusBadge } from "./ui/StatusBadge.tsx";

const FAILURE = "The payment could not be completed.";

/** The UI kit's hydrated half: the pieces that need React state, for the browser test. */
export default function UiKitDemo() {
  return (
    <section aria-labelledby="island-heading">
      <h2 id="island-heading">In a React island</h2>
      <DialogDemo />
      <BannerDemo />
      <BusyDemo />
      <h3>Display</h3>
      <p>
        <StatusBadge kind="billing" status="Paid" /> <Money amount={cents(4200)} currency={Currency.EUR} />{" "}
        <DateText at={epochSeconds(1793891220)} withTime />
      </p>
      <EmptyState level={3} title="No tags yet" text="Create a tag to group your devices." />
    </section>
  );
}

function DialogDemo() {
  const [open, setOpen] = useState(false);
  const [closes, setCloses] = useState(0);
  const [knocks, setKnocks] = useState(0);
  return (
    <>
      <h3>Dialog</h3>
      <div className="button-row">
        <button type="button" onClick={() => setOpen(true)}>
          Update Location
        </button>
        <button type="button" className="secondary" onClick={() => setKnocks((n) => n + 1)}>
          Knock
        </button>
      </div>
      <p>
        Knocks: <output>{knocks}</output>. Closed by itself: <output>{closes}</output>.
      </p>
      <Dialog
        title="Update Location"
        open={open}
        onClose={() => {
          setCloses((n) => n + 1);
          setOpen(false);
        }}
        footer={
          <button type="button" onClick={() => setOpen(false)}>
            Done
          </button>
        }
      >
        <label>
          Location
          <input name="location" />
        </label>
      </Dialog>
    </>
  );
}

function BannerDemo() {
  const [error, setError] = useState<string | null>(FAILURE);
  return (
    <>
      <h3>Error banner</h3>
      {error ? (
        <ErrorBanner message={error} onDismiss={() => setError(null)} />
      ) : (
        <button type="button" className="secondary" onClick={() => setError(FAILURE)}>
          Show the error again
        </button>
      )}
    </>
  );
}

function BusyDemo() {
  const [busy, setBusy] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
  };
  return (
    <>
      <h3>Busy button</h3>
      <form onSubmit={submit} aria-label="Busy button demo" className="button-row">
        <BusyButton busy={busy} busyLabel="Authenticating...">
          Sign In
        </BusyButton>
        <button type="button" className="secondary" onClick={() => setBusy(false)}>
          Finish
        </button>
      </form>
    </>
  );
}
