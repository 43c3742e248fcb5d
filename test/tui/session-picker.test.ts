// The session picker's state and keys (R-UI-17), pure: newest first, fuzzy filtering as typed,
// Enter picks the highlighted session, Esc leaves, ages in words.
import { describe, expect, it } from "vitest";
import {
  age,
  filtered,
  newPicker,
  pickerKey,
  type PickerKey,
  type PickerState,
} from "../../src/tui/session-picker.js";

const NO: PickerKey = {
  upArrow: false,
  downArrow: false,
  pageUp: false,
  pageDown: false,
  return: false,
  escape: false,
  backspace: false,
  delete: false,
  ctrl: false,
  meta: false,
};

const entries = [
  { id: "s1", title: "fix the parser", started: "2026-12-01T10:00:00Z", turns: 3, cost: 0.1 },
  { id: "s3", title: "write the docs", started: "2026-12-01T12:00:00Z", turns: 1, cost: null },
  { id: "s2", title: "lexer speedup", started: "2026-12-01T11:00:00Z", turns: 7, cost: 0.5 },
];

function typed(state: PickerState, text: string): PickerState {
  for (const ch of text) {
    const out = pickerKey(state, ch, NO);
    if (!("state" in out)) throw new Error("typing left the picker");
    state = out.state;
  }
  return state;
}

describe("session picker", () => {
  it("lists newest first and filters fuzzily as typed", () => {
    const picker = newPicker(entries);
    expect(filtered(picker).map((e) => e.id)).toEqual(["s3", "s2", "s1"]);
    expect(filtered(typed(picker, "prsr")).map((e) => e.id)).toEqual(["s1"]);
    expect(filtered(typed(picker, "zzz"))).toEqual([]);
  });

  it("Enter picks the highlighted session, ↓ moves, Esc leaves, Backspace edits the query", () => {
    const picker = newPicker(entries);
    const down = pickerKey(picker, "", { ...NO, downArrow: true });
    expect("state" in down && pickerKey(down.state, "", { ...NO, return: true })).toEqual({ pick: "s2" });
    expect(pickerKey(picker, "", { ...NO, escape: true })).toEqual({ leave: true });
    const back = pickerKey(typed(picker, "ab"), "", { ...NO, backspace: true });
    expect("state" in back && back.state.query).toBe("a");
    // Nothing matches: Enter does nothing.
    expect(pickerKey(typed(picker, "zzz"), "", { ...NO, return: true })).toMatchObject({ state: {} });
  });

  it("says how old a session is in words", () => {
    const now = Date.parse("2026-12-03T12:00:00Z");
    expect(age("2026-12-03T11:59:30Z", now)).toBe("just now");
    expect(age("2026-12-03T11:15:00Z", now)).toBe("45m ago");
    expect(age("2026-12-03T07:00:00Z", now)).toBe("5h ago");
    expect(age("2026-12-01T12:00:00Z", now)).toBe("2d ago");
  });
});
