// What undo and redo left of a session, replayed from its record (R-CKPT-2): the record is the
// truth, so the engine's undo, `tern undo` on a closed session and a front end's replay all ask here.
import type { RecordLine, UndoRecord } from "./types.js";

/** Turns still in the model context and the undos a redo could take back, replayed from the archive. */
export function undoHistory(archive: readonly RecordLine[]): { live: number[]; undos: UndoRecord[] } {
  let live: number[] = [];
  let stack: { line: UndoRecord; turns: number[] }[] = [];
  for (const line of archive) {
    if (line.type === "user_prompt" && line.turn > (live.at(-1) ?? 0)) {
      live.push(line.turn);
      stack = [];
    } else if (line.type === "cleared") stack = [];
    else if (line.type === "rewound") live = live.filter((t) => t <= line.toTurn);
    else if (line.type === "undo" && line.filesOnly) stack.push({ line, turns: [] });
    else if (line.type === "undo") {
      stack.push({ line, turns: live.filter((t) => t > line.toTurn) });
      live = live.filter((t) => t <= line.toTurn);
    } else if (line.type === "redo") {
      const top = stack.pop();
      if (top) live = [...live, ...top.turns].sort((a, b) => a - b);
    }
  }
  return { live, undos: stack.map((s) => s.line) };
}
