// `tern --resume` without an id (R-UI-17): the session picker on its own, before any session is
// opened. Resolves with the id picked, or undefined when the person leaves (Esc, Ctrl+C). The
// picker's rows are cleared once it is answered, so the UI that follows starts on a clean line.
import { render, Text, useInput } from "ink";
import { useRef, useState } from "react";
import { sessionsOf } from "../engine/session-queries.js";
import { newPicker, type PickerEntry, pickerKey, pickerRows } from "./session-picker.js";
import { giveBackTypeAhead, holdTypeAhead } from "./terminal-modes.js";

const MAX_ROWS = 16;

function PickerApp({ entries, done }: { entries: PickerEntry[]; done: (id: string | undefined) => void }) {
  const [state, setState] = useState(() => newPicker(entries));
  // Keys can come faster than renders: each one must see what the one before it did.
  const latest = useRef(state);
  useInput((input, key) => {
    if (key.ctrl && input === "c") return done(undefined);
    const out = pickerKey(latest.current, input, key);
    if ("state" in out) {
      latest.current = out.state;
      setState(out.state);
    } else done("pick" in out ? out.pick : undefined);
  });
  const cols = process.stdout.columns || 80;
  const rows = Math.min(MAX_ROWS, (process.stdout.rows || 24) - 1);
  return <Text>{pickerRows(state, cols, rows, Date.now()).join("\n")}</Text>;
}

export function pickSessionAtStart(entries: PickerEntry[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    let answered = false;
    const done = (id: string | undefined) => {
      if (answered) return;
      answered = true;
      ink.clear();
      ink.unmount();
      resolve(id);
    };
    const ink = render(<PickerApp entries={entries} done={(id) => done(id)} />, {
      exitOnCtrlC: false,
      patchConsole: false,
    });
  });
}

/**
 * What `tern --resume` without an id opens: `{ id }` picked, `{}` when the workspace has no
 * session yet (a new one starts, and says so), or null when the person left the picker.
 */
export async function resumeAtStart(home: string, cwd: string): Promise<{ id?: string; none?: true } | null> {
  const entries = sessionsOf(home, cwd).filter((s) => !s.error);
  if (entries.length === 0) return { none: true };
  // Ink reads the keys now; held again afterwards until the UI itself listens.
  giveBackTypeAhead();
  const id = await pickSessionAtStart(entries);
  if (id === undefined) return null;
  holdTypeAhead();
  return { id };
}
