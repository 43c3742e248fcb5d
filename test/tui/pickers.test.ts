// R-UI-28 / R-UI-29: one picker for `/model` (the catalogue with window and price, fuzzy filter,
// the current model marked, arrows and Enter switch), `/rewind` and Esc Esc (earlier prompts, then
// what to restore; the rewound turns marked), Tab completing a command's argument, and `@` paths
// shown whole unless they cannot fit. In a real pseudo-terminal read by @xterm/headless.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stripAnsi, width } from "../../src/tui/ansi.js";
import { type PickerState, pickerRows } from "../../src/tui/picker.js";
import { howPicker, promptsInContext } from "../../src/tui/rewind-picker.js";
import { middle } from "../../src/tui/slash-menu.js";
import { openaiText } from "../support/openai-script.js";
import { userTexts, useTui } from "./support.js";

const t = useTui();

describe("picker parts (pure)", () => {
  it("a path is cut in its middle, keeping its start and its file name", () => {
    const path = "packages/server/src/handlers/authentication/session-token.ts";
    expect(middle(path, 200)).toBe(path);
    const cut = middle(path, 40);
    expect(cut.length).toBe(40);
    expect(cut.startsWith("packages/")).toBe(true);
    expect(cut.endsWith("/session-token.ts")).toBe(true);
  });

  it("an entry's title is kept whole before its facts, and no row is wider than the screen", () => {
    for (const cols of [40, 60, 100]) {
      const rows = pickerRows(howPicker(2), cols, 10, 0).map(stripAnsi);
      for (const row of rows.slice(1, -1)) expect(width(row)).toBeLessThanOrEqual(cols - 1);
      const titles = rows.slice(1, -1).map((r) => r.slice(2).split("  ")[0]);
      expect(titles).toEqual(["conversation", "conversation and files", "files only"]);
    }
    // A long title is shortened to leave its facts (at most a third of the row) their room.
    const long: PickerState = {
      purpose: "model",
      heading: "Models",
      verb: "switch",
      empty: "",
      entries: [
        { id: "x", title: "provider/a-very-long-model-identifier-name-v2", facts: () => "200k · $3/$15" },
      ],
      query: "",
      selected: 0,
    };
    const [row] = pickerRows(long, 40, 10, 0).slice(1, 2).map(stripAnsi);
    expect(width(row)).toBe(39);
    expect(row).toBe(`▸ provider/a-very-long-…${" ".repeat(2)}200k · $3/$15`);
  });

  it("the prompts in the context leave out what a rewind withdrew and what /clear dropped", () => {
    const base = { v: 1, ts: "2026-12-07T10:00:00Z" };
    const prompt = (seq: number, turn: number, text: string) =>
      ({ ...base, seq, type: "user_prompt", turn, content: [{ type: "text", text }] }) as any;
    const lines = [
      prompt(1, 1, "one"),
      { ...base, seq: 2, type: "cleared" } as any,
      prompt(3, 2, "two"),
      prompt(4, 3, "three"),
      { ...base, seq: 5, type: "rewound", toTurn: 2 } as any,
      prompt(6, 4, "four"),
    ];
    expect(promptsInContext(lines).map((p) => p.text)).toEqual(["two", "four"]);
  });
});

describe("the /model picker and Tab after a command", () => {
  it("filters the catalogue, marks the current model, and Enter switches", async () => {
    const vt = await t.start();
    await vt.type("/model "); // the space closes the command menu; Enter runs the line
    await vt.press("enter");
    await vt.waitForScreen(/Switch model · type to filter:/);
    // The current model first, with its window; catalogue entries with their prices.
    await vt.waitForScreen(/▸ local\/mock-1 .*128k window · price \? · current/);
    await vt.type("gpt5mini");
    await vt.waitForScreen(/▸ openai\/gpt-5-mini +272k window · \$0\.25 \/ \$2 per M/);
    await vt.press("enter");
    await vt.waitForScreen(/^openai\/gpt-5-mini .*· context 0%/m);
    // Tab completes a model id after `/model `: one match goes in whole.
    await vt.type("/model local/mo");
    await vt.write("\t");
    await vt.waitForScreen(/│ › \/model local\/mock-1 +│/);
    await vt.press("enter");
    await vt.waitForScreen(/^local\/mock-1 · context/m);
    // Several matches open the menu; ↓ and Enter take one and run the command.
    await vt.type("/mcp ");
    await vt.write("\t");
    await vt.waitForScreen(/› reconnect +restart one server/);
    await vt.press("down");
    await vt.press("enter");
    await vt.waitFor("no .mcp.json servers in this workspace");
  });

  it("Tab completes /export's file name, folder by folder, and /export writes the archive there", async () => {
    mkdirSync(join(t.dirs.workspace, "notes"));
    t.provider.enqueue(openaiText("an answer"));
    const vt = await t.start();
    await vt.type("remember this");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    await vt.type("/export md no");
    await vt.write("\t");
    await vt.waitForScreen(/│ › \/export md notes\/ +│/);
    await vt.type("talk.md");
    await vt.press("enter");
    const path = join(t.dirs.workspace, "notes", "talk.md");
    await vt.waitFor(`exported the session (md) to ${path}`);
    expect(readFileSync(path, "utf8")).toContain("remember this");
  });

  it("/agents opens the picker of agents; Enter shows the one chosen", async () => {
    const vt = await t.start();
    await vt.type("/agents");
    await vt.press("enter");
    await vt.waitForScreen(/Agents · type to filter/);
    await vt.waitForScreen(/explore · Read-only: searches the workspace and reports\. +builtin/);
    await vt.type("expl");
    await vt.press("enter");
    await vt.waitFor(/agent explore \(builtin\)\n {2}Read-only: searches the workspace and reports\./);
  });

  it("the @ menu shows a long path whole at 100 columns", async () => {
    const dir = join(t.dirs.workspace, "packages", "server", "src", "handlers", "authentication");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "session-token.ts"), "export {};\n");
    const vt = await t.start();
    await vt.type("see @session-tok");
    await vt.waitForScreen("› @packages/server/src/handlers/authentication/session-token.ts");
  });
});

describe("rewind (Esc Esc and /rewind)", () => {
  it("Esc Esc opens the earlier prompts; choosing one and `conversation` withdraws it and marks it", async () => {
    t.provider.enqueue(openaiText("first answer"));
    t.provider.enqueue(openaiText("second answer"));
    t.provider.enqueue(openaiText("third answer"));
    const vt = await t.start();
    await vt.type("first question");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    await vt.type("second question");
    await vt.press("enter");
    await vt.waitFor(/— turn 2 · completed/);
    await vt.press("escape");
    await vt.press("escape");
    await vt.waitForScreen(/Rewind to before a prompt/);
    await vt.waitForScreen(/▸ second question +turn 2 · /);
    await vt.waitForScreen(/ {2}first question +turn 1 · /);
    await vt.press("enter");
    await vt.waitForScreen(/Rewind to before turn 2: restore/);
    await vt.waitForScreen(/▸ conversation +turns from here leave the context; files stay/);
    await vt.press("enter");
    await vt.waitFor("⟲ rewound: turn 2 is out of the context (kept above for reading)");
    // The prompt comes back to be edited and sent again.
    await vt.waitForScreen(/│ › second question +│/);
    await vt.write("\x15"); // Ctrl+U
    await vt.type("another question");
    await vt.press("enter");
    await vt.waitFor(/— turn 3 · completed/);
    expect(userTexts(t.provider.requests[2].body)).toEqual(["first question", "another question"]);
  });

  it("/rewind without a turn opens the same picker instead of dropping the last turn at once", async () => {
    t.provider.enqueue(openaiText("an answer"));
    const vt = await t.start();
    await vt.type("only question");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    await vt.type("/rewind ");
    await vt.press("enter");
    await vt.waitForScreen(/Rewind to before a prompt/);
    await vt.waitForScreen(/▸ only question +turn 1/);
    await vt.press("escape");
    await vt.waitForGone(/Rewind to before a prompt/);
    expect(vt.text()).not.toContain("withdrawn from the context");
  });
});
