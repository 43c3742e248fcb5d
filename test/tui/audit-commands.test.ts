// A re-check of /context (R-UI-24) in a real pseudo-terminal: besides each part it says
// what they come to, and how much of the model's window that is (as Claude Code's /context).
import { describe, expect, it } from "vitest";
import { openaiText } from "../support/openai-script.js";
import { useTui } from "./support.js";

const t = useTui();

describe("/context", () => {
  it("ends with the total and its share of the context window", async () => {
    t.provider.enqueue(openaiText("hello back"));
    const vt = await t.start([], { models: { "local/mock-1": { contextWindow: 100_000 } } });
    await vt.type("hello");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    await vt.type("/context");
    await vt.press("enter");
    const text = await vt.waitFor(/total {2}~\d+ tokens of 100000 \(\d+%\)/);
    const part = (name: string) => Number(text.match(new RegExp(`${name}[^~\\n]*~(\\d+) tokens`))![1]);
    const total = Number(text.match(/total {2}~(\d+) tokens/)![1]);
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
    expect(vt.text().match(/is not in the catalogue/g)).toHaveLength(1);
  });
});
