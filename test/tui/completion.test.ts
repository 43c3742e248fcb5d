// The composer's completion (R-UI-14, R-UI-6) in a real pseudo-terminal: `/` opens a menu of
// commands with descriptions, ↑/↓ choose, Tab completes, Enter runs; `@` completes workspace
// paths that .gitignore does not hide; an unknown command suggests the nearest one.
// The pure parts (menus, nearest command) are checked directly too.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nearestCommand, unknownCommandText } from "../../src/commands/suggest.js";
import { applyMenu, commandMenu, fileMenu } from "../../src/tui/completion.js";
import { openaiText } from "../support/openai-script.js";
import { userTexts, useTui } from "./support.js";

const t = useTui();

describe("completion (pure)", () => {
  it("offers the commands a typed prefix starts, aliases included, with descriptions", () => {
    const menu = commandMenu("/s", 2)!;
    expect(menu.items.map((i) => i.label)).toEqual(["/status", "/stats", "/summarize", "/side <question>"]);
    expect(menu.items[0].detail).toBe("session, model, context and cost");
    expect(commandMenu("/status", 7)).toBeUndefined();
    expect(commandMenu("/status x", 9)).toBeUndefined();
    expect(applyMenu("/mo", commandMenu("/mo", 3)!)).toEqual({ text: "/model ", cursor: 7 });
  });

  it("ranks file names before paths and replaces only the @ token", () => {
    const files = ["docs/alpha-notes.md", "src/alpha.ts", "src/lib/beta.ts"];
    const menu = fileMenu("look at @alp please", 12, files)!;
    expect(menu.items.map((i) => i.label)).toEqual(["@src/alpha.ts", "@docs/alpha-notes.md"]);
    expect(applyMenu("look at @alp please", menu)).toEqual({
      text: "look at @src/alpha.ts  please",
      cursor: 22,
    });
    expect(fileMenu("no token here", 5, files)).toBeUndefined();
  });

  it("suggests the nearest command only when it is near", () => {
    expect(nearestCommand("/stauts")).toBe("/status");
    expect(nearestCommand("/hel")).toBe("/help");
    expect(nearestCommand("/frobnicate")).toBeUndefined();
    expect(unknownCommandText("/modle")).toBe(
      "unknown command /modle: did you mean /model? (/help lists the commands)",
    );
  });
});

describe("tern composer completion", () => {
  it("/ shows the command menu; ↓ and Tab complete; Enter runs the chosen command", async () => {
    const vt = await t.start();
    await vt.type("/");
    await vt.waitForScreen(/› \/help\s+this help/);
    expect(vt.screen().join("\n")).toMatch(/\/status\s+session, model, context and cost/);
    await vt.type("hi");
    await vt.waitForScreen(/› \/history \[N\]\s+the turns, or turn N whole/);
    await vt.press("escape");
    await vt.waitForGone(/the turns, or turn N whole/);
    await vt.press("backspace");
    await vt.press("backspace");
    await vt.type("st");
    await vt.waitForScreen(/› \/status\s+session, model/);
    await vt.press("down");
    await vt.waitForScreen(/› \/stats\s+tool calls by tool/);
    await vt.write("\t");
    await vt.waitForScreen(/│ › \/stats *│/);
    await vt.waitForGone(/tool calls by tool/);
    await vt.press("enter");
    await vt.waitFor("no tool calls yet");
    // Enter on the open menu runs the selected command at once.
    await vt.type("/he");
    await vt.waitForScreen(/› \/help\s+this help/);
    await vt.press("enter");
    await vt.waitFor(/\/history \[N\]\s+the turns, or turn N whole/);
  });

  it("an unknown command suggests the nearest one", async () => {
    const vt = await t.start();
    await vt.type("/stauts");
    await vt.press("enter");
    await vt.waitFor("unknown command /stauts: did you mean /status? (/help lists the commands)");
  });

  it("@ completes workspace paths, leaving out what .gitignore hides", async () => {
    const ws = t.dirs.workspace;
    mkdirSync(join(ws, "src"), { recursive: true });
    writeFileSync(join(ws, "src", "parser.ts"), "export {};\n");
    writeFileSync(join(ws, "src", "printer.ts"), "export {};\n");
    writeFileSync(join(ws, "parse.log"), "noise\n");
    writeFileSync(join(ws, ".gitignore"), "*.log\n");
    t.provider.enqueue(openaiText("read it"));
    const vt = await t.start();
    await vt.type("explain @par");
    await vt.waitForScreen(/› @src\/parser\.ts/);
    expect(vt.screen().join("\n")).not.toContain("parse.log");
    await vt.write("\t");
    await vt.waitForScreen(/│ › explain @src\/parser\.ts *│/);
    await vt.type("please");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    expect(userTexts(t.provider.requests[0].body)[0]).toContain("explain @src/parser.ts please");
  });
});
