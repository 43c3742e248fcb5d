// The picker in the live region (picker.ts, R-UI-28): keys go to it (keys.ts) until Enter takes an
// entry or Esc (or Ctrl+C) leaves. What the entry means is its purpose's: `/resume` without an id
// switches like `/resume <id>` (R-UI-17), `/model` like `/model <id>`, a rewind goes on to what to
// restore (rewind-picker.ts). Its state is the store's only; `commands.ts` opens it.
import type { UiControl } from "./controller-types.js";
import { applyTheme } from "./ansi.js";
import { filtered, type PickerKey, pickerKey } from "./picker.js";
import { isTheme, previewTheme, restoreTheme } from "./theme-picker.js";
import { loadUiCommands } from "./index.js";
import { agentsOf, agentText } from "./list-pickers.js";
import { rewindPicked } from "./rewind-picker.js";

/** A key while the picker is open. */
export function pickerFlowKey(ctl: UiControl, input: string, key: PickerKey): void {
  const picker = ctl.state.picker;
  if (!picker) return;
  const out = key.ctrl && input === "c" ? ({ leave: true } as const) : pickerKey(picker, input, key);
  if ("state" in out) {
    if (picker.purpose === "theme")
      previewTheme(
        out.state,
        filtered(out.state).map((e) => e.id),
      );
    ctl.store.dispatch({ type: "picker", picker: out.state });
    return;
  }
  ctl.store.dispatch({ type: "picker", picker: null });
  if (picker.purpose === "theme" && !("pick" in out)) restoreTheme(picker);
  if (!("pick" in out)) return;
  const slash = (line: string) => loadUiCommands().then((m) => m.runSlash(ctl, line));
  const run = (line: string) => void slash(line);
  switch (picker.purpose) {
    case "resume":
      if (out.pick === ctl.session.id) ctl.print("info", `session ${out.pick} is the one open now`);
      else run(`/resume ${out.pick}`);
      return;
    case "model":
      if (out.pick === picker.current) ctl.print("info", `model ${out.pick} is the one in use`);
      else run(`/model ${out.pick}`);
      return;
    case "theme":
      if (isTheme(out.pick)) applyTheme(out.pick);
      ctl.print("info", `theme: ${out.pick} (set "ui": {"theme": "${out.pick}"} in config.json to keep it)`);
      return;
    case "agents":
      ctl.print("info", agentText(agentsOf(ctl.deps.cwd, ctl.deps.home, ctl.config), out.pick));
      return;
    case "mcp":
      run(`/mcp reconnect ${out.pick}`);
      return;
    case "rewind":
    case "rewind-how":
    case "rewind-force":
      rewindPicked(ctl, picker, out.pick, slash);
  }
}
