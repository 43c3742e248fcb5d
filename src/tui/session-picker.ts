// The session picker (R-UI-17) of `tern --resume` and `/resume` without an id: the workspace's
// sessions newest first, each with its title, age, turns and cost; the one picker (picker.ts)
// filters them as typed (fzf over title and id), ↑/↓ move, Enter opens, Esc leaves.
import { count } from "./ansi.js";
import { type PickerState, pickerKey, pickerRows, filtered } from "./picker.js";
import { money } from "../vocab/cost.js";

export { filtered, pickerKey, pickerRows };
export type { PickerKey, PickerOutcome, PickerState } from "./picker.js";

export interface PickerEntry {
  id: string;
  title: string;
  /** ISO-8601 start time. */
  started: string;
  turns: number;
  cost: number | null;
}

export function newPicker(entries: readonly PickerEntry[], current?: string): PickerState {
  const newest = [...entries].sort((a, b) => b.started.localeCompare(a.started) || b.id.localeCompare(a.id));
  return {
    purpose: "resume",
    heading: "Resume a session",
    verb: "open",
    empty: "no sessions in this workspace yet",
    entries: newest.map((e) => ({
      id: e.id,
      title: e.title || "(no prompt yet)",
      search: `${e.title} ${e.id}`,
      facts: (now) =>
        `${age(e.started, now)} · ${count(e.turns, "turn")} · ${money(e.cost, "$?")}${e.id === current ? " · open now" : ""}`,
    })),
    query: "",
    selected: 0,
    ...(current ? { current } : {}),
  };
}

/** `just now`, `5m ago`, `3h ago`, `2d ago`. */
export function age(started: string, now: number): string {
  const s = Math.max(0, Math.floor((now - Date.parse(started)) / 1000));
  if (!Number.isFinite(s)) return "?";
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86_400)}d ago`;
}
