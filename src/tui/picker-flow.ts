// `/resume` without an id in the Ink UI (R-UI-17): the picker opens in the live region, keys go
// to it (keys.ts) until Enter picks a session, which then switches like `/resume <id>`, or Esc
// (or Ctrl+C) leaves it with the current session still open. Its state is the store's only;
// `commands.ts` opens it.
import type { UiControl } from "./controller-types.js";
import { type PickerKey, pickerKey } from "./session-picker.js";
import { loadUiCommands } from "./index.js";

/** A key while the picker is open. */
export function pickerFlowKey(ctl: UiControl, input: string, key: PickerKey): void {
  const picker = ctl.state.picker;
  if (!picker) return;
  const out = key.ctrl && input === "c" ? ({ leave: true } as const) : pickerKey(picker, input, key);
  if ("state" in out) {
    ctl.store.dispatch({ type: "picker", picker: out.state });
    return;
  }
  ctl.store.dispatch({ type: "picker", picker: null });
  if (!("pick" in out)) return;
  if (out.pick === ctl.session.id) ctl.print("info", `session ${out.pick} is the one open now`);
  else void loadUiCommands().then((m) => m.runSlash(ctl, `/resume ${out.pick}`));
}
