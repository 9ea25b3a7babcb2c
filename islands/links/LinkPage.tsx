import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { $link, loadLink } from "../../src/stores/links.ts";
import { $router } from "../../src/stores/router.ts";
import { DeviceTable } from "../devices/DeviceTable.tsx";
import { LoadFailed } from "../devices/LoadFailed.tsx";
import { EmptyState } from "../ui/EmptyState.tsx";
import "../../src/styles/devices.css";
import { appPath } from "../../src/domain/appPaths.ts";

/** /links/{linkId}: a link of the subscription (the device page's 'Connected to') and its devices. */
export default function LinkPage() {
  const page = useStore($router);
  const id = page?.route === "link" ? page.params.linkId : undefined;
  const state = useStore($link);
  useEffect(() => void loadLink(id), [id]);
  switch (state.status) {
    case "loading":
      return <p aria-busy="true">Loading link...</p>;
    case "error":
      return (
        <section aria-labelledby="link-title">
          <h1 id="link-title">Link</h1>
          <LoadFailed message={state.message} />
          <p>
            <a href={appPath("devices")}>All devices</a>
          </p>
        </section>
      );
    case "ready":
      return (
        <section className="link-page" aria-labelledby="link-title">
          <header className="page-head">
            <h1 id="link-title">{state.link.name}</h1>
            <a href={appPath("devices")}>All devices</a>
          </header>
          <p className="muted">
            {state.devices.length === 1
              ? "1 device is connected through this link."
              : `${state.devices.length} devices are connected through this link.`}
          </p>
          {state.devices.length ? (
            <DeviceTable devices={state.devices} caption={`Devices connected through ${state.link.name}`} />
          ) : (
            <EmptyState
              title="No devices connected"
              text="No device of this subscription is connected through this link now."
            />
          )}
        </section>
      );
  }
}
