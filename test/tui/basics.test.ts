// The Ink UI in a real pseudo-terminal: streaming, status line, approvals, /help while busy,
// and a transcript that writes each committed line once.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { approve, countLines, useTui } from "./support.js";

const t = useTui();

describe("tern interactive UI", () => {
  it("streams an answer into the transcript once, with model and tokens in the status line", async () => {
    t.provider.enqueue(
      openaiStream()
        .text("Hello ")
        .text("from the")
        .text(" fake model.")
        .finish("stop")
        .usage({ prompt_tokens: 1200, completion_tokens: 34 })
        .delay(30)
        .build(),
    );
    const vt = await t.start();
    await vt.type("say hello");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed · rounds=0/);
    await vt.waitFor("1234 tokens");
    const screen = vt.screen().join("\n");
    expect(screen).toMatch(/local\/mock-1 · context \d+% · 1234 tokens/);
    const lines = vt.lines();
    // No flicker: committed lines are in scrollback + screen exactly once.
    expect(countLines(lines, "Hello from the fake model.")).toBe(1);
    expect(countLines(lines, "› say hello")).toBe(1);
    expect(t.provider.requests.at(-1)!.body.messages.at(-1)).toMatchObject({ role: "user" });
  });

  it("draws live when the shell exports CI=true (Ink would otherwise hold every frame until exit)", async () => {
    t.provider.enqueue(openaiText("answer while CI is set"));
    // start() waits for the status line: with Ink's CI mode it would never come.
    const vt = await t.start([], {}, undefined, { CI: "true", CONTINUOUS_INTEGRATION: "1" });
    await vt.type("hello");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    expect(countLines(vt.lines(), "answer while CI is set")).toBe(1);
  });

  it("asks for approval per batch: y runs the call, n denies it", async () => {
    t.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "touch made-by-y" } }]),
      openaiText("ran it"),
      openaiToolCalls([{ id: "c2", name: "bash", args: { command: "touch made-by-n" } }]),
      openaiText("was denied"),
    );
    const vt = await t.start();
    await vt.type("first");
    await vt.press("enter");
    await vt.waitFor("Allow this tool call?");
    // The command as a readable line, never the raw JSON; "always" says what it covers.
    const prompt = vt.screen().join("\n");
    // The command once, whole, under the tool's name (R-UI-19).
    expect(prompt).toMatch(/^bash\s*\n\s*│ touch made-by-y\s*$/m);
    expect(prompt).not.toContain('{"command"');
    // The approval policy's own words: a grant covers commands starting with the same words.
    expect(prompt).toContain("a always: bash commands starting with `touch made-by-y` for this session");
    await approve(vt, "y");
    await vt.waitFor("ran it");
    expect(existsSync(join(t.dirs.workspace, "made-by-y"))).toBe(true);

    await vt.type("second");
    await vt.press("enter");
    await vt.waitForScreen(/Allow this tool call\?[\s\S]*touch made-by-n/);
    await approve(vt, "n");
    await vt.waitFor("was denied");
    expect(existsSync(join(t.dirs.workspace, "made-by-n"))).toBe(false);
    const tool = t.provider.requests[3].body.messages.find(
      (m: any) => m.role === "tool" && m.tool_call_id === "c2",
    );
    expect(tool.content).toContain("denied");
  });

  it("answers /help at once while a turn runs, and rejects unknown commands helpfully", async () => {
    t.provider.enqueue(
      openaiStream()
        .text("slow ")
        .text("answer")
        .finish("stop")
        .usage({ prompt_tokens: 5 })
        .delay(400)
        .build(),
    );
    const vt = await t.start();
    await vt.type("go slowly");
    await vt.press("enter");
    await vt.waitFor("Thinking");
    await vt.type("/help");
    await vt.press("enter");
    await vt.waitFor("/btw <question>");
    // The turn was still running when the help appeared.
    expect(vt.text()).not.toContain("— turn 1");
    await vt.waitFor("— turn 1 · completed");
    await vt.type("/frobnicate");
    await vt.press("enter");
    await vt.waitFor("unknown command /frobnicate: /help lists the commands");
  });
});
