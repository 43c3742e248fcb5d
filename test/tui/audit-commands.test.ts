// A re-check of /context (R-UI-24) in a real pseudo-terminal: besides each part it says
// what they come to, and how much of the model's window is in use, the status line's number.
import { describe, expect, it } from "vitest";
import { openaiText } from "../support/openai-script.js";
import { VTerm } from "../support/vterm.js";
import { useTui } from "./support.js";

const t = useTui();

describe("/context", () => {
  it("ends with the total, and the share in use as the status line reads it (R-UI-24: one number)", async () => {
    t.provider.enqueue(openaiText("hello back", { prompt_tokens: 7_600, completion_tokens: 5 }));
    const vt = await t.start([], { models: { "local/mock-1": { contextWindow: 100_000 } } });
    await vt.type("hello");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    await vt.type("/context");
    await vt.press("enter");
    const text = await vt.waitFor(/in use {2}7600 of 100000 tokens \(8%\), as the status line/);
    // 7.6 % is 8 % in both places (the status line rounds the same figure the same way).
    expect(vt.screen().join("\n")).toMatch(/context 8% · /);
    const part = (name: string) => Number(text.match(new RegExp(`${name}[^~\\n]*~(\\d+) tokens`))![1]);
    const total = Number(text.match(/total {2}~(\d+) tokens \(estimated\)/)![1]);
    expect(total).toBe(part("system prompt") + part("tools \\(\\d+\\)") + part("history"));
  });
});

describe("Shift+Tab with a statusLine command", () => {
  it("keeps a mode other than ask in view beside the command's line", async () => {
    const vt = await t.start(
      [],
      { statusLine: { type: "command", command: "echo custom line" } },
      /Enter send · /,
    );
    await vt.waitForScreen(/^custom line *$/m);
    await vt.press("shiftTab");
    await vt.waitForScreen(/^custom line · auto-edit *$/m);
    await vt.press("shiftTab");
    await vt.waitForScreen(/^custom line · plan *$/m);
    await vt.press("shiftTab");
    await vt.waitForScreen(/^custom line *$/m);
  });
});

describe("a narrow terminal's first screen", () => {
  it("at 40 columns the keys take one short row and the composer and status line are on screen", async () => {
    const vt = new VTerm({
      home: t.dirs.home,
      cwd: t.dirs.workspace,
      args: ["--model", "local/mock-1", "--base-url", t.provider.baseUrl],
      cols: 40,
      rows: 14,
    });
    try {
      const screen = await vt.waitForScreen(/context \d+%/, 15_000);
      expect(screen).toContain("/help keys · Ctrl+C exit");
      expect(screen).not.toContain("Alt+Enter newline");
      expect(screen).toMatch(/│ › +│/);
    } finally {
      await vt.close();
    }
  });
});

describe("a session opened again in the same run", () => {
  it("/fork does not repeat the model's notice", async () => {
    t.provider.enqueue(openaiText("first answer"));
    const vt = await t.start();
    await vt.type("hello");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    await vt.type("/fork 1");
    await vt.press("enter");
    await vt.waitFor("forked into");
    expect(vt.text().match(/notice: (model )?local\/mock-1/g)).toHaveLength(1);
  });
});
