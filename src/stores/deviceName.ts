import { updateDevice } from "../api/devices.ts";
import { titleToSave } from "../domain/labels.ts";
import { patchGeneral, shownDevice } from "./device.ts";
import { formStore, formTask } from "./formTask.ts";
import { call } from "./http.ts";

/** The editable name's save: busy and the message beside it. */
export const $rename = formStore();

/**
 * The editable name (spec section 4): saves when the trimmed draft is non-empty and changed.
 * Resolves with the name to show: the saved one, or the current one when nothing was saved.
 */
export async function renameDevice(draft: string): Promise<{ saved: boolean; name: string }> {
  const device = shownDevice();
  if (!device) return { saved: false, name: draft };
  const name = titleToSave(draft, device.general.name);
  if (name === null) {
    $rename.set({ busy: false, errors: [] });
    return { saved: false, name: device.general.name };
  }
  const saved = await formTask($rename, async () => {
    const answer = await call(updateDevice, { name }, { deviceId: device.general.id });
    patchGeneral({ name: answer.name });
  });
  return { saved, name: saved ? name : draft };
}
