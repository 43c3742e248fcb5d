// `tern --resume` without an id (R-UI-17): the session picker on its own, before any session is
// opened. Resolves with the id picked, or undefined when the person leaves (Esc, Ctrl+C). The
// picker's rows are cleared once it is answered, so the UI that follows starts on a clean line.
import { render, Text, useInput } from "ink";
import { useRef, useState } from "react";
import { sessionsOf } from "../workspace/session-queries.js";
import { keyParts } from "./key-parts.js";
import { newPicker, type PickerEntry, pickerKey, pickerRows } from "./session-picker.js";
import { giveBackTypeAhead, holdTypeAhead } from "./terminal-modes.js";

const MAX_ROWS = 16;

/** What a chunk held after the key that answered the picker ("\rhello" → "hello"): the UI's type-ahead. */
function afterAnswer(chunk: string, parts: readonly [string, unknown][], answered: number): string {
  const rest = parts.slice(answered + 1).map(([input]) => input);
  // Text parts are the chunk's own characters; only plain text is worth handing on.
  const text = rest.join("");
  return rest.length > 0 && chunk.endsWith(text) && !/[\x00-\x1f\x7f]/.test(text) ? text : "";
}

type Done = (id: string | undefined, typedAfter?: string) => void;

function PickerApp({ entries, done }: { entries: PickerEntry[]; done: Done }) {
  const [state, setState] = useState(() => newPicker(entries));
  // Keys can come faster than renders: each one must see what the one before it did.
  const latest = useRef(state);
  useInput((chunk, chunkKey) => {
    // A busy process reads keys typed quickly as one chunk ("r\r"): each is a key of its own.
    const parts = keyParts(chunk, chunkKey);
    for (const [i, [input, key]] of parts.entries()) {
      if (key.ctrl && input === "c") return done(undefined);
      const out = pickerKey(latest.current, input, key);
      if (!("state" in out)) return done("pick" in out ? out.pick : undefined, afterAnswer(chunk, parts, i));
      latest.current = out.state;
      setState(out.state);
    }
  });
  const cols = process.stdout.columns || 80;
  const rows = Math.min(MAX_ROWS, (process.stdout.rows || 24) - 1);
  return <Text>{pickerRows(state, cols, rows, Date.now()).join("\n")}</Text>;
}

/** The id picked (undefined: left), and what was typed after Enter in the same read. */
export function pickSessionAtStart(entries: PickerEntry[]): Promise<{ id?: string; typedAfter: string }> {
  return new Promise((resolve) => {
    let answered = false;
    const done: Done = (id, typedAfter) => {
      if (answered) return;
      answered = true;
      ink.clear();
      ink.unmount();
      resolve({ id, typedAfter: typedAfter ?? "" });
    };
    const ink = render(<PickerApp entries={entries} done={done} />, {
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
  const { id, typedAfter } = await pickSessionAtStart(entries);
  if (id === undefined) return null;
  // Typed after Enter in the same read: the composer's, held with what comes while the UI opens.
  holdTypeAhead(typedAfter);
  return { id };
}
