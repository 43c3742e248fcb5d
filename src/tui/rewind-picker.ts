// Rewind as in Claude Code (R-UI-29): Esc Esc at an idle prompt, or `/rewind` without a turn,
// opens the one picker (picker.ts) over the earlier prompts still in the context, newest first;
// taking one asks what to restore — the conversation (that prompt and every turn after it leave
// the context, the files stay), the conversation and the files (the checkpoints put the files
// back as they were before it), or the files only (Claude Code's "Restore code": the files go
// back, every turn stays, and the next request tells the model) — and then runs
// `/rewind <turn before it> [files|files-only]`. After a conversation rewind the prompt comes back
// into the composer to be edited and sent again, and a marked line in the transcript says which
// turns were rewound (the lines above stay for reading; they are out of the context); after the
// files only, the line says which paths went back. Files changed since the newest snapshot make
// the files-only restore ask before it overwrites them (undo's refusal, `--force` in a command).
import type { TranscriptLine } from "../engine/door/commands.js";
import { undoHistory } from "../workspace/offline-undo.js";
import { age } from "./session-picker.js";
import type { UiControl } from "./controller-types.js";
import type { PickerState } from "./picker.js";

interface Prompt {
  turn: number;
  text: string;
  ts: string;
}

/**
 * The prompts still in the context: after the last `/clear`, none a rewind or an undo withdrew
 * (a redo puts an undo's back; a files-only restore withdraws none), as the record's undo history says.
 */
export function promptsInContext(lines: readonly TranscriptLine[]): Prompt[] {
  const live = new Set(undoHistory(lines).live);
  let prompts: Prompt[] = [];
  for (const line of lines) {
    if (line.type === "cleared") prompts = [];
    else if (line.type === "user_prompt") {
      const text = line.content.map((p) => (p.type === "text" ? p.text : "[image]")).join("");
      prompts.push({ turn: line.turn, text, ts: line.ts });
    }
  }
  return prompts.filter((p) => live.has(p.turn));
}

export function rewindPicker(lines: readonly TranscriptLine[]): PickerState {
  return {
    purpose: "rewind",
    heading: "Rewind to before a prompt",
    verb: "choose",
    empty: "no earlier prompt to rewind to",
    entries: promptsInContext(lines)
      .reverse()
      .map((p) => ({
        id: String(p.turn),
        title: p.text,
        search: p.text,
        facts: (now) => `turn ${p.turn} · ${age(p.ts, now)}`,
      })),
    query: "",
    selected: 0,
  };
}

/** A picker entry whose facts are fixed text. */
const entry = (id: string, title: string, facts: string) => ({ id, title, facts: () => facts });

/** The second step: what to restore to before `turn`. */
export function howPicker(turn: number): PickerState {
  return {
    purpose: "rewind-how",
    heading: `Rewind to before turn ${turn}: restore`,
    verb: "rewind",
    empty: "",
    entries: [
      entry("conversation", "conversation", "turns from here leave the context; files stay"),
      entry("both", "conversation and files", "files back as before this prompt (checkpoints)"),
      entry("files", "files only", "files back as before this prompt; the conversation stays"),
    ],
    query: "",
    selected: 0,
    context: turn,
  };
}

/** Esc Esc or `/rewind` without a turn: the picker of earlier prompts. */
export function openRewind(ctl: UiControl): void {
  ctl.store.dispatch({ type: "picker", picker: rewindPicker(ctl.session.transcript()) });
}

/** `run`: runs a slash command line (picker-flow.ts passes the commands' runSlash). */
export function rewindPicked(
  ctl: UiControl,
  picker: PickerState,
  pick: string,
  run: (line: string) => Promise<void>,
): void {
  if (picker.purpose === "rewind") {
    ctl.store.dispatch({ type: "picker", picker: howPicker(Number(pick)) });
    return;
  }
  if (picker.purpose === "rewind-force") {
    if (pick !== KEEP) void run(pick);
    return;
  }
  const turn = picker.context ?? 0;
  // The files only: the slash command marks what went back; the prompt stays where it is.
  if (pick === "files") {
    void run(`/rewind ${turn - 1} files-only`);
    return;
  }
  const prompt = promptsInContext(ctl.session.transcript()).find((p) => p.turn === turn);
  const last = ctl.session.status().lastTurn;
  void (async () => {
    await run(`/rewind ${turn - 1}${pick === "both" ? " files" : ""}`);
    const withdrawn = promptsInContext(ctl.session.transcript()).every((p) => p.turn < turn);
    if (!withdrawn) return;
    const span = last > turn ? `turns ${turn}–${last} are` : `turn ${turn} is`;
    const files = pick === "both" ? "; files restored" : "";
    ctl.print("interrupted", `⟲ rewound: ${span} out of the context (kept above for reading)${files}`);
    if (prompt && ctl.state.composer === "")
      ctl.store.dispatch({ type: "compose", text: prompt.text, cursor: prompt.text.length });
  })();
}

const KEEP = "keep";

/**
 * A files-only restore refused where `--force` overrides (files changed since the newest snapshot;
 * the refusal is printed above, naming them): ask before overwriting them; `line` is the same
 * command forced. Keeping them is the first choice.
 */
export function offerForce(ctl: UiControl, line: string): void {
  ctl.store.dispatch({
    type: "picker",
    picker: {
      purpose: "rewind-force",
      heading: "Restore the files anyway?",
      verb: "choose",
      empty: "",
      entries: [
        entry(KEEP, "no, keep the files as they are", "nothing is restored"),
        entry(line, "yes, restore anyway", "those changes are overwritten; /redo puts them back"),
      ],
      query: "",
      selected: 0,
    },
  });
}
