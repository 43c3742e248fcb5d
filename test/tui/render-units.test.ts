// The pure drawing parts of the UI: markdown, tool lines, diffs, the approval prompt and its
// key guard, and the live region's fit below the terminal height.
import { describe, expect, it } from "vitest";
import { stripAnsi, style, width } from "../../src/tui/ansi.js";
import { approvalKey } from "../../src/tui/approval-keys.js";
import { alwaysScope, approvalRows, newApproval } from "../../src/tui/approval.js";
import type { TuiController } from "../../src/tui/controller.js";
import { diffRows } from "../../src/tui/diff-view.js";
import { loadHighlighter } from "../../src/tui/highlight.js";
import { composerRows, liveRows } from "../../src/tui/live-view.js";
import { renderMarkdown } from "../../src/tui/markdown.js";
import { streamCut } from "../../src/tui/stream-cuts.js";
import { reduce } from "../../src/tui/reducer.js";
import type { UiAction } from "../../src/tui/ui-actions.js";
import { initialState, type UiState } from "../../src/tui/ui-state.js";
import { Store } from "../../src/tui/store.js";
import { callLine, resultRows } from "../../src/tui/tool-view.js";
import { builtinTools } from "../../src/tools/builtin/all.js";
import { presentCall } from "../../src/tools/present.js";

/** A call as the engine publishes it: presented by its own tool. */
const toolCall = (id: string, name: string, args: string) => ({
  id,
  name,
  arguments: args,
  presentation: presentCall(
    builtinTools.find((t) => t.name === name),
    args,
  ),
});

const plain = (rows: string[]) => rows.map(stripAnsi);
const start = () => initialState({ model: "local/m", sessionId: "s1", contextWindow: 1000 });
const run = (state: UiState, ...actions: UiAction[]) => actions.reduce(reduce, state);

describe("markdown", () => {
  it("renders headings, emphasis, lists, quotes and tables without their markup", () => {
    const rows = plain(
      renderMarkdown(
        "# Title\n\nSome **bold** and `code`.\n\n- one\n- two\n\n> quoted\n\n| a | b |\n|---|--:|\n| 1 | 22 |\n",
        60,
      ),
    );
    expect(rows).toContain("Title");
    expect(rows).toContain("Some bold and code.");
    expect(rows).toContain("• one");
    expect(rows).toContain("▌ quoted");
    expect(rows).toContain("│ a │  b │");
    expect(rows).toContain("│ 1 │ 22 │");
    expect(rows.join("\n")).not.toMatch(/\*\*|^#|`/m);
  });

  it("wraps a table cell without a stray leading space and honours centre alignment", () => {
    const rows = plain(renderMarkdown("| name | note |\n|:-:|---|\n| x | alpha beta gamma delta |\n", 24));
    // The note column is narrowed: its continuation rows start at the cell's edge.
    const notes = rows.filter((r) => r.startsWith("│ ") && !r.includes("name")).map((r) => r.split("│")[2]);
    expect(notes.length).toBeGreaterThan(1);
    for (const note of notes) expect(note).toMatch(/^ \S/);
    const centred = plain(renderMarkdown("| heading |\n|:-:|\n| x |\n", 40));
    expect(centred).toContain("│    x    │");
  });

  it("colours code by its language once the highlighter is loaded", async () => {
    await loadHighlighter();
    const rows = renderMarkdown("```ts\nconst x = 1;\n```\n", 60);
    expect(plain(rows)).toEqual(["  ts", "│ const x = 1;"]);
    // The keyword carries a colour of its own.
    expect(rows[1]).toContain(style.magenta("const"));
  });

  it("keeps every row within the width, tables included", () => {
    const long = `| ${"wide ".repeat(30)} | ${"cell ".repeat(30)} |\n|---|---|\n| x | y |\n\n${"word ".repeat(80)}`;
    for (const row of renderMarkdown(long, 50)) expect(width(row)).toBeLessThanOrEqual(50);
  });

  it("finds where complete blocks end, never inside a code fence", () => {
    const cutAt = (text: string) => streamCut(text).cut;
    expect(cutAt("para one\n\nstill typing")).toBe("para one\n\n".length);
    expect(cutAt("```\ncode\n\nmore")).toBe(0);
    const fenced = "```\ncode\n\nmore\n```\n";
    expect(cutAt(`${fenced}rest`)).toBe(fenced.length);
    expect(cutAt("no newline yet")).toBe(0);
    // Before each top-level item of a list, once the item's line is whole; the piece then joins.
    expect(streamCut("- one\n- two\n- thr")).toEqual({ cut: "- one\n".length, joined: true });
    // `-` alone may yet become a rule (`---`): no cut before it.
    expect(streamCut("para\n-")).toEqual({ cut: 0, joined: false });
  });
});

describe("tool lines", () => {
  const bash = toolCall("c1", "bash", JSON.stringify({ command: "npm test" }));
  it("shows a call as its name and key argument, never the JSON", () => {
    expect(stripAnsi(callLine(bash, 80))).toBe("● bash  npm test");
    // Finished, it says how long it ran, kept even when the argument is cut.
    expect(stripAnsi(callLine({ ...bash, outcome: "ok", ms: 1234 }, 80))).toBe("● bash  npm test · 1.2s");
    expect(stripAnsi(callLine({ ...bash, outcome: "ok", ms: 125_000 }, 20))).toBe("● bash  np… · 2m 05s");
    const edit = toolCall(
      "c2",
      "edit_file",
      JSON.stringify({ path: "src/a.ts", old_string: "a", new_string: "b" }),
    );
    expect(stripAnsi(callLine(edit, 80))).toBe("● edit_file  src/a.ts");
    expect(stripAnsi(callLine(toolCall("c3", "mcp_x", '{"q":"find me","n":3}'), 80))).toBe(
      "● mcp_x  q=find me n=3",
    );
  });

  it("shows the tail of a successful call's output and errors in red", () => {
    const ok = plain(resultRows({ ...bash, outcome: "ok", content: "1\n2\n3\n4\n5\n6\n7" }, 80));
    expect(ok).toEqual(["  ⎿ … 3 earlier lines · Ctrl+O shows all", "    4", "    5", "    6", "    7"]);
    const failed = resultRows({ ...bash, outcome: "error", content: "boom\n[exit status 1]" }, 80);
    expect(failed[0]).toContain(style.red("boom"));
    const denied = plain(resultRows({ ...bash, outcome: "denied", content: "denied by user" }, 80));
    expect(denied).toEqual(["  ⎿ denied by user"]);
  });

  it("shows an edit as a coloured diff, with line numbers where they are known", () => {
    const view = diffRows("a\nb\nc\n", "a\nB\nc\n", 80, 20, 10);
    expect(plain(view.rows)).toEqual(["10   a", "11 - b", "11 + B", "12   c"]);
    expect(plain(diffRows("b\n", "B\n", 80, 20).rows)).toEqual(["- b", "+ B"]);
    expect(view.rows[1].startsWith(style.red("x").split("x")[0])).toBe(true);
    expect(view.rows[2].startsWith(style.green("x").split("x")[0])).toBe(true);
    expect(view).toMatchObject({ added: 1, removed: 1 });
  });
});

describe("approval prompt", () => {
  const call = (command: string) => ({ ...toolCall("c1", "bash", JSON.stringify({ command })), paths: [] });

  it("shows a long command whole, wrapped, and scrolls when it is taller than the room", () => {
    const command = `echo ${"x".repeat(900)} END`;
    const a = newApproval([call(command)], 0);
    const rows = plain(approvalRows(a, 80, 40, 1000));
    const body = rows.filter((r) => r.startsWith("  │ ")).map((r) => r.slice(4));
    expect(body.join("")).toBe(command);
    const small = plain(approvalRows(a, 80, 8, 1000));
    expect(small.length).toBeLessThanOrEqual(8);
    expect(small.join("\n")).toMatch(/rows 1-\d+ of \d+ · ↑\/↓ PgUp\/PgDn scroll/);
  });

  it("keeps a long batch to a few rows around the current call, key hints always in view", () => {
    const calls = Array.from({ length: 30 }, (_, i) => ({ ...call(`echo ${i}`), id: `c${i}` }));
    const rows = plain(approvalRows(newApproval(calls, 0), 80, 14, 1000));
    expect(rows.length).toBeLessThanOrEqual(14);
    expect(rows).toContain("  … 25 more calls");
    expect(rows.at(-1)).toBe("Y allow all remaining  N deny all remaining");
  });

  it("cuts a huge always-scope so the command itself keeps its rows", () => {
    const always = `bash commands starting with \`echo ${"z".repeat(2000)}\` for this session`;
    const rows = plain(
      approvalRows(newApproval([{ ...call(`echo ${"z".repeat(2000)}`), always }], 0), 80, 16, 1000),
    );
    expect(rows.length).toBeLessThanOrEqual(16);
    expect(rows.filter((r) => r.startsWith("  │ ")).length).toBeGreaterThan(3);
    expect(rows.join("\n")).toMatch(/a always: bash commands starting with[\s\S]*…/);
  });

  it("says what always covers", () => {
    expect(alwaysScope(call("ls"))).toBe("every bash command for the rest of this session");
    expect(alwaysScope({ ...toolCall("c", "edit_file", "{}"), paths: ["src/a.ts"] })).toBe(
      "edit_file on src/a.ts for the rest of this session",
    );
    // The approval policy's own description wins when the engine sends it.
    const always = "bash commands starting with `npm test` for this session";
    expect(alwaysScope({ ...call("npm test"), always })).toBe(always);
  });

  it("ignores keys in the guard window, typed-ahead chunks and Enter; answers each call of a batch", () => {
    const store = new Store(start());
    const answered: string[] = [];
    const ctl = {
      store,
      get state() {
        return store.get();
      },
      answerApproval: (answer: string, all = false) => {
        answered.push(all ? `${answer}*` : answer);
        store.dispatch({
          type: "approval_answer",
          answer: answer === "y" ? "approved" : answer === "a" ? "always" : "denied",
          all,
        });
      },
      ctrlC: () => answered.push("ctrlC"),
    } as unknown as TuiController;
    store.dispatch({ type: "approval", calls: [call("one"), call("two"), call("three")], now: 10_000 });
    const key = { return: false, escape: false, ctrl: false, meta: false } as never;
    approvalKey(ctl, "a", key, 10_100); // typed as the prompt appeared
    approvalKey(ctl, "say", key, 10_400); // a typed-ahead chunk
    approvalKey(ctl, "", { ...(key as object), return: true } as never, 10_500);
    expect(answered).toEqual([]);
    approvalKey(ctl, "y", key, 10_400);
    approvalKey(ctl, "n", key, 10_500);
    expect(store.get().approval!.answers).toEqual(["approved", "denied", undefined]);
    approvalKey(ctl, "Y", key, 10_600);
    expect(answered).toEqual(["y", "n", "y*"]);
  });
});

describe("live region", () => {
  it("never reaches the terminal height: a long stream shows its tail, a huge composer a window", () => {
    let s = run(
      start(),
      { type: "event", event: { type: "turn_start", turn: 1 }, now: 0 },
      { type: "busy", busy: true },
    );
    s = reduce(s, {
      type: "event",
      event: { type: "text_delta", text: Array.from({ length: 200 }, (_, i) => `line ${i}`).join(" ") },
      now: 0,
    });
    s = reduce(s, { type: "compose", text: Array.from({ length: 300 }, (_, i) => `pasted ${i}`).join("\n") });
    const live = liveRows(s, 60, 20, 0, "⠋");
    const height = live.above.length + live.composer.length + 2 + 1;
    expect(height).toBeLessThan(20);
    expect(plain(live.above).join("\n")).toContain("line 199");
    expect(plain(live.composer).at(-1)).toMatch(/\(\d+ more lines\)/);
  });

  it("shows a long finished side answer a window at a time, says where, and how far it can scroll", () => {
    const answer = Array.from({ length: 40 }, (_, i) => `- point ${String(i + 1).padStart(2, "0")}`).join(
      "\n",
    );
    let s = run(
      start(),
      { type: "side_ask", question: "long?" },
      { type: "side_done", ok: true, text: answer },
    );
    const top = liveRows(s, 60, 24, 0, "⠋");
    const shown = plain(top.above).join("\n");
    expect(shown).toContain("point 01");
    expect(shown).not.toContain("point 40");
    expect(shown).toMatch(/rows 1-\d+ of 40 · ↑\/↓ PgUp\/PgDn scroll/);
    expect(top.sideScroll).not.toBeNull();
    const { max } = top.sideScroll!;
    s = reduce(s, { type: "side_scroll", delta: 1000, max });
    const bottom = plain(liveRows(s, 60, 24, 0, "⠋").above).join("\n");
    expect(bottom).toContain("point 40");
    expect(bottom).not.toContain("point 01");
    expect(bottom).toMatch(new RegExp(`rows ${max + 1}-40 of 40`));
    // A short answer fits: nothing to scroll.
    const short = run(
      start(),
      { type: "side_ask", question: "q" },
      { type: "side_done", ok: true, text: "fits" },
    );
    expect(liveRows(short, 60, 24, 0, "⠋").sideScroll).toBeNull();
  });

  it("counts the completion menu inside the fit", () => {
    const items = Array.from({ length: 30 }, (_, i) => ({
      label: `/cmd${i}`,
      detail: "does a thing",
      value: `/cmd${i}`,
    }));
    let s = reduce(start(), { type: "compose", text: "/c" });
    s = reduce(s, { type: "menu", menu: { kind: "command", items, index: 12, start: 0, end: 2 } });
    for (const rows of [24, 10]) {
      const live = liveRows(s, 60, rows, 0, "⠋");
      const height = live.above.length + live.composer.length + 2 + live.menu.length + 1;
      expect(height).toBeLessThan(rows);
      expect(plain(live.menu).at(-1)).toContain("Esc close");
      expect(plain(live.menu).join("\n")).toContain("› /cmd12");
    }
    // A terminal too short for it keeps the composer and status, not the menu.
    const tiny = liveRows(s, 60, 6, 0, "⠋");
    expect(tiny.above.length + tiny.composer.length + 2 + tiny.menu.length + 1).toBeLessThanOrEqual(6);
    expect(liveRows(reduce(s, { type: "menu", menu: null }), 60, 24, 0, "⠋").menu).toEqual([]);
  });

  it("draws the cursor cell inverse inside wrapped composer rows", () => {
    const rows = composerRows("abcdef", 2, "› ", 6, 10);
    expect(plain(rows)).toEqual(["› abcd", "  ef"]);
    expect(rows[0]).toContain("\x1b[7mc\x1b[27m");
  });
});

describe("streaming into the scrollback", () => {
  it("commits complete blocks while the answer streams and the rest at the end, each once", () => {
    let s = run(start(), { type: "event", event: { type: "turn_start", turn: 1 }, now: 0 });
    s = reduce(s, { type: "event", event: { type: "text_delta", text: "First para.\n\nSecond" }, now: 0 });
    expect(s.items.map((i) => i.text)).toEqual(["First para."]);
    s = reduce(s, { type: "event", event: { type: "text_delta", text: " para." }, now: 0 });
    s = reduce(s, {
      type: "event",
      event: {
        type: "assistant_message",
        text: "First para.\n\nSecond para.",
        reasoning: "",
        tool_calls: [],
        finish_reason: "stop",
      },
      now: 0,
    });
    expect(s.items.map((i) => i.text)).toEqual(["First para.", "Second para."]);
  });

  it("keeps an interrupted answer on screen, marked, when the turn is cancelled", () => {
    let s = run(start(), { type: "event", event: { type: "turn_start", turn: 1 }, now: 0 });
    s = reduce(s, { type: "event", event: { type: "text_delta", text: "half an ans" }, now: 0 });
    s = reduce(s, {
      type: "event",
      event: {
        type: "turn_end",
        turn: 1,
        stop_reason: "cancelled",
        rounds: 1,
        model_calls: 1,
        tool_calls: 0,
        tool_errors: 0,
        usage: { prompt: 0, completion: 0, cache_read: 0, cache_write: 0 },
        cost: null,
        duration_ms: 10,
        tool_rounds: 0,
      },
      now: 0,
    });
    expect(s.items.map((i) => i.kind)).toEqual(["assistant", "interrupted", "turn"]);
    expect(s.items[0].text).toBe("half an ans");
    expect(s.items[1].text).toBe("⏹ interrupted · the partial answer above is not part of the conversation");
    expect(s.status.cost).toBeNull();
  });
});
