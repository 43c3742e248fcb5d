// Slash commands of the Ink UI in a real pseudo-terminal (R-UI-3, R-UI-6): /clear, /compact and
// what is refused during a compaction, /quit cancelling it, /model, /export, /todos, /resume.
import { describe, expect, it } from "vitest";
import { openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import type { VTerm } from "../support/vterm.js";
import { statusSession, userTexts, useTui } from "./support.js";

const t = useTui();

async function turn(vt: VTerm, prompt: string, n: number): Promise<void> {
  await vt.type(prompt);
  await vt.press("enter");
  await vt.waitFor(new RegExp(`— turn ${n} · completed`));
}

describe("tern interactive slash commands", () => {
  it("/clear empties the context and drops the side thread", async () => {
    t.provider.enqueue(
      openaiText("first answer"),
      openaiText("side answer"),
      openaiText("after the clear"),
      openaiText("fresh side"),
    );
    const vt = await t.start();
    await turn(vt, "remember the word kiwi", 1);
    await vt.type("/btw what word?");
    await vt.press("enter");
    await vt.waitForScreen("btw: what word? (1/1)");
    await vt.press("escape");
    await vt.waitForGone("btw: what word?");
    await vt.type("/clear");
    await vt.press("enter");
    await vt.waitFor("context cleared");
    await turn(vt, "which word?", 2);
    // The request after /clear holds only the new prompt.
    expect(userTexts(t.provider.requests[2].body)).toEqual(["which word?"]);
    await vt.type("/btw and now?");
    await vt.press("enter");
    await vt.waitForScreen("btw: and now? (1/1)");
    expect(userTexts(t.provider.requests[3].body).join("\n")).not.toContain("what word?");
  });

  it("/compact shows Compacting, then the compaction result", async () => {
    t.provider.enqueue(
      // Longer than its summary: a summary not smaller than what it replaces is not applied.
      openaiText(`answer one ${"a".repeat(1500)}`),
      openaiText("answer two"),
      openaiStream().text("The summary.").finish("stop").usage({ prompt_tokens: 9 }).delay(150).build(),
    );
    const vt = await t.start();
    await turn(vt, "first task", 1);
    await turn(vt, "second task", 2);
    await vt.type("/compact");
    await vt.press("enter");
    await vt.waitForScreen("Compacting");
    await vt.waitFor(/compacted: \d+ → \d+ tokens/);
    await vt.waitForGone("Compacting");
    expect(userTexts(t.provider.requests[2].body).at(-1)).toMatch(/^Summarize the conversation/);
    // One /compact, one line, whatever stages it ran.
    expect(vt.lines().filter((l) => /compacted/.test(l))).toHaveLength(1);
    // The model has no price: /cost still says the tokens (R-UI-22).
    await vt.type("/cost");
    await vt.press("enter");
    await vt.waitFor(/cost so far: unknown \(no price known for the model\) · tokens \d+ in · \d+ out/);
  });

  it("refuses /clear during a compaction, and /quit cancels it and exits", async () => {
    t.provider.enqueue(
      openaiText("answer one"),
      openaiText("answer two"),
      openaiStream().text("never").finish("stop").stallAfter(1).build(),
    );
    const vt = await t.start();
    await turn(vt, "first task", 1);
    await turn(vt, "second task", 2);
    await vt.type("/compact");
    await vt.press("enter");
    await vt.waitForScreen("Compacting");
    await vt.type("/clear");
    await vt.press("enter");
    await vt.waitFor("/clear is not available while compacting");
    expect(vt.text()).not.toContain("context cleared");
    await vt.type("/quit");
    await vt.press("enter");
    // The stalled summary request never ends by itself: the UI says it was cancelled only when
    // /quit cancelled it (otherwise the UI gives up waiting after 2 s and leaves without a word).
    expect(await vt.exited).toBe(0);
    expect(vt.text()).toContain("request cancelled");
    expect(t.provider.requests).toHaveLength(3);
  });

  it("/model changes the status line and the next request's model", async () => {
    t.provider.enqueue(openaiText("from other"));
    const vt = await t.start();
    await vt.type("/model local/other");
    await vt.press("enter");
    await vt.waitFor("model: local/other");
    await vt.waitForScreen(/local\/other · context \d+%/);
    await turn(vt, "who answers?", 1);
    expect(t.provider.requests[0].body.model).toBe("other");
  });

  it("/export md prints the transcript; /todos shows the list todo_write set", async () => {
    t.provider.enqueue(
      openaiToolCalls([
        {
          id: "c1",
          name: "todo_write",
          args: {
            todos: [
              { content: "write the parser", status: "completed" },
              { content: "test the parser", status: "in_progress" },
            ],
          },
        },
      ]),
      openaiText("planned it"),
    );
    const vt = await t.start(["--yes"]);
    await vt.type("/todos");
    await vt.press("enter");
    await vt.waitFor("no todos");
    await turn(vt, "make a plan", 1);
    await vt.type("/todos");
    await vt.press("enter");
    await vt.waitFor(/\[x\] write the parser\s*\n\s*\[>\] test the parser/);
    await vt.type("/export md");
    await vt.press("enter");
    const text = await vt.waitFor(/# tern session \S+/);
    expect(text).toMatch(/## Turn 1\s*\n\s*\n\s*\*\*User\*\*\s*\n\s*\n\s*make a plan/);
    expect(text).toContain("**Assistant**");
    expect(text).toMatch(/_Turn 1 ended: completed/);
  });

  it("/resume <id> switches to another session", async () => {
    t.provider.enqueue(openaiText("first answer"), openaiText("fork answer"), openaiText("back home"));
    const vt = await t.start();
    await turn(vt, "original prompt", 1);
    // The turn's line can be on screen before the rest of its frame (the status line) is.
    await vt.waitForScreen(/· session \S+\s*$/m);
    const original = statusSession(vt.screen());
    await vt.type("/fork");
    await vt.press("enter");
    const forked = (await vt.waitFor(/forked into (\S+)/)).match(/forked into (\S+)/)![1];
    await turn(vt, "only in the fork", 2);
    await vt.type(`/resume ${original}`);
    await vt.press("enter");
    await vt.waitForScreen(new RegExp(`· session ${original}\\s*$`, "m"));
    expect(forked).not.toBe(original);
    await vt.waitFor(`session ${original} (resumed)`);
    await turn(vt, "are we back?", 2);
    // "turn 2 · completed" is already on screen from the fork: wait for this turn's own answer.
    await vt.waitFor("back home");
    expect(userTexts(t.provider.requests[2].body)).toEqual(["original prompt", "are we back?"]);
  });
});

describe("tern --plain", () => {
  it("runs the line mode: a › prompt, no box, streamed answers", async () => {
    t.provider.enqueue(openaiText("plain answer"));
    const vt = await t.start(["--plain"], {}, /tern · local\/mock-1 · session \S+/);
    await vt.waitFor(/^› $/m);
    await vt.type("hello plain");
    await vt.press("enter");
    await vt.waitFor("plain answer");
    await vt.waitFor(/— turn 1 · completed/);
    const text = vt.text();
    // No Ink drawing: no box corners, no status line.
    expect(text).not.toMatch(/[┌┐└┘╭╮╰╯│]/);
    expect(text).not.toMatch(/context \d+% · \d+ tokens/);
    await vt.type("/quit");
    await vt.press("enter");
    expect(await vt.exited).toBe(0);
  });
});
