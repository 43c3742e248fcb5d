// Approvals ask only what can run, and a batch reads in one order (R-UI-19): an edit of a file
// not read this turn is refused before any prompt, with the result the model would get anyway;
// a one-call prompt shows its command once; results are drawn in call order, not finish order.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { approve, useTui } from "./support.js";

const t = useTui();

/** The tool messages of a recorded Chat Completions request, by call id. */
function toolMessages(body: any): Record<string, string> {
  return Object.fromEntries(
    body.messages.filter((m: any) => m.role === "tool").map((m: any) => [m.tool_call_id, m.content]),
  );
}

describe("approval prompts and batch results", () => {
  it("refuses an edit of a file not read this turn without asking, with the same result", async () => {
    writeFileSync(join(t.dirs.workspace, "notes.txt"), "old line\n");
    t.provider.enqueue(
      openaiToolCalls([
        { id: "e1", name: "edit_file", args: { path: "notes.txt", old_string: "old", new_string: "new" } },
      ]),
      openaiText("will read it first"),
    );
    const vt = await t.start();
    await vt.type("change the note");
    await vt.press("enter");
    await vt.waitFor("will read it first");
    expect(vt.raw).not.toContain("Allow this tool call?");
    expect(vt.text()).toMatch(
      /● edit_file {2}notes\.txt[\s\S]*Read .*notes\.txt with read_file before editing it/,
    );
    expect(toolMessages(t.provider.requests[1].body).e1).toMatch(
      /^Read .*notes\.txt with read_file before editing it \(edits need a read in this turn\)\.$/,
    );
  });

  it("still asks for an edit whose file an earlier call of the same batch reads", async () => {
    writeFileSync(join(t.dirs.workspace, "notes.txt"), "old line\n");
    t.provider.enqueue(
      openaiToolCalls([
        { id: "r1", name: "read_file", args: { path: "notes.txt" } },
        { id: "e1", name: "edit_file", args: { path: "notes.txt", old_string: "old", new_string: "new" } },
      ]),
      openaiText("edited"),
    );
    const vt = await t.start();
    await vt.type("read and change the note");
    await vt.press("enter");
    await vt.waitForScreen("Allow this tool call?");
    await approve(vt, "y");
    await vt.waitFor("edited");
    expect(toolMessages(t.provider.requests[1].body).e1).not.toMatch(/before editing/);
  });

  it("a one-call prompt shows its command once", async () => {
    t.provider.enqueue(
      openaiToolCalls([{ id: "b1", name: "bash", args: { command: "echo shown-once-marker" } }]),
      openaiText("ran it"),
    );
    const vt = await t.start();
    await vt.type("run it");
    await vt.press("enter");
    const screen = await vt.waitForScreen("Allow this tool call?");
    // The "always" line quotes the rule it would add; the command itself is shown once.
    const shown = screen
      .split("\n")
      .filter((l) => l.includes("echo shown-once-marker") && !l.includes("always:"));
    expect(shown).toHaveLength(1);
    await approve(vt, "n");
    await vt.waitFor("ran it");
  });

  it("draws a batch's results in call order although they finish in reverse", async () => {
    t.provider.enqueue(
      openaiToolCalls([
        { id: "b1", name: "bash", args: { command: "sleep 0.8; echo first-done-last" } },
        { id: "b2", name: "bash", args: { command: "sleep 0.4; echo second-call" } },
        { id: "b3", name: "bash", args: { command: "echo third-done-first" } },
      ]),
      openaiText("batch over"),
    );
    const vt = await t.start();
    await vt.type("run three");
    await vt.press("enter");
    await vt.waitForScreen("Allow tool call 1 of 3?");
    await approve(vt, "Y");
    await vt.waitFor("batch over");
    const text = vt.text();
    const at = (s: string) => text.indexOf(`● bash  ${s}`);
    expect(at("sleep 0.8; echo first-done-last")).toBeGreaterThan(-1);
    expect(at("sleep 0.8; echo first-done-last")).toBeLessThan(at("sleep 0.4; echo second-call"));
    expect(at("sleep 0.4; echo second-call")).toBeLessThan(at("echo third-done-first"));
  });
});
