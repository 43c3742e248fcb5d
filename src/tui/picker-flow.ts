// `/resume` without an id in the Ink UI (R-UI-17): the picker opens in the live region, keys go
// to it (keys.ts) until Enter picks a session, which then switches like `/resume <id>`, or Esc
// (or Ctrl+C) leaves it with the current session still open.
import { sessionsOf } from "../engine/session-queries.js";
import { newPicker, type PickerKey, pickerKey } from "./session-picker.js";
import type { Store } from "./store.js";

export class PickerFlow {
  constructor(
    private readonly store: Store,
    private readonly where: { home: string; cwd: string },
    private readonly onPick: (id: string) => void,
  ) {}

  open(current: string): void {
    const entries = sessionsOf(this.where.home, this.where.cwd).filter((s) => !s.error);
    this.store.dispatch({ type: "picker", picker: newPicker(entries, current) });
  }

  /** A key while the picker is open. */
  key(input: string, key: PickerKey): void {
    const picker = this.store.get().picker;
    if (!picker) return;
    const out = key.ctrl && input === "c" ? ({ leave: true } as const) : pickerKey(picker, input, key);
    if ("state" in out) {
      this.store.dispatch({ type: "picker", picker: out.state });
      return;
    }
    this.store.dispatch({ type: "picker", picker: null });
    if ("pick" in out) this.onPick(out.pick);
  }
}
