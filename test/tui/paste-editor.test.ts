// Large pastes, tabs and $EDITOR in the composer (R-UI-14), in a real pseudo-terminal: a paste
// over 10 lines shows as `[pasted N lines]` and is sent whole, Backspace removes the placeholder
// as one; a tab never breaks the box's border; Ctrl+G and Ctrl+X Ctrl+E edit the prompt in
// $EDITOR.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lineCount, Pastes } from "../../src/tui/paste.js";
import { openaiStream, openaiText } from "../support/openai-script.js";
import { userTexts, useTui } from "./support.js";

const t = useTui();
const paste = (text: string) => `\x1b[200~${text}\x1b[201~`;

describe("paste placeholders (pure)", () => {
  it("collapses over 10 lines or 1000 characters, with distinct labels, and expands them", () => {
    const p = new Pastes();
    const big = Array.from({ length: 12 }, (_, i) => `line ${i}`).join("\n");
    const other = Array.from({ length: 12 }, (_, i) => `other ${i}`).join("\n");
    expect(p.collapse("short\npaste")).toBe("short\npaste");
    expect(p.collapse(big)).toBe("[pasted 12 lines]");
    expect(p.collapse(other)).toBe("[pasted 12 lines #2]");
    expect(p.collapse("x".repeat(1500))).toBe("[pasted 1500 characters]");
    expect(p.expand("a [pasted 12 lines] b [pasted 12 lines #2] [pasted 3 lines]")).toBe(
      `a ${big} b ${other} [pasted 3 lines]`,
    );
    expect(p.placeholderBefore("see [pasted 12 lines]", 21)).toBe("[pasted 12 lines]");
  });
});

describe("paste line counts", () => {
  it("counts lines as wc -l does, plus a last line without a break", () => {
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineCount("a\nb")).toBe(2);
    expect(lineCount("")).toBe(0);
    expect(lineCount("x\n".repeat(2000))).toBe(2000);
  });
});

describe("tern composer pastes and $EDITOR", () => {
  it("a 2,000-line paste ending in a newline reads [pasted 2000 lines] (wc -l's count)", async () => {
    const vt = await t.start();
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i + 1}`);
    await vt.write(paste(`${lines.join("\r")}\r`));
    await vt.waitForScreen(/│ › \[pasted 2000 lines\] *│/);
  });

  it("shows a 30-line paste as one placeholder and sends it whole", async () => {
    t.provider.enqueue(openaiText("got all of it"));
    const vt = await t.start();
    const lines = Array.from({ length: 30 }, (_, i) => `row ${i + 1}`);
    await vt.type("check this: ");
    await vt.write(paste(lines.join("\r")));
    await vt.waitForScreen(/│ › check this: \[pasted 30 lines\] *│/);
    expect(vt.screen().join("\n")).not.toContain("row 2");
    // Backspace takes the placeholder as one; a second paste comes back under the same label.
    await vt.press("backspace");
    await vt.waitForScreen(/│ › check this: *│/);
    await vt.write(paste(lines.join("\r")));
    await vt.waitForScreen(/│ › check this: \[pasted 30 lines\] *│/);
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    expect(userTexts(t.provider.requests[0].body)).toEqual([`check this: ${lines.join("\n")}`]);
    // The transcript shows the placeholder, not 30 lines.
    expect(vt.text()).toContain("› check this: [pasted 30 lines]");
    expect(vt.text()).not.toContain("row 17");
    // Recalled, in this process and the next, it comes back collapsed and is sent whole.
    await vt.press("up");
    await vt.waitForScreen(/│ › check this: \[pasted 30 lines\] *│/);
    await vt.press("ctrlC");
    await vt.write("\x04");
    expect(await vt.exited).toBe(0);
    t.provider.enqueue(openaiText("again"));
    const next = await t.start();
    await next.press("up");
    // From the file the whole prompt is one long text: it comes back as one placeholder.
    await next.waitForScreen(/│ › \[pasted 30 lines\] *│/);
    await next.press("enter");
    await next.waitFor(/— turn 1 · completed/);
    expect(userTexts(t.provider.requests[1].body)).toEqual([`check this: ${lines.join("\n")}`]);
  });

  it("a tab keeps the box's right border in its column", async () => {
    const vt = await t.start();
    await vt.write(paste("a\tb\tc"));
    const screen = await vt.waitForScreen(/│ › a {2}b {2}c *│/);
    const rows = screen.split("\n");
    const box = rows.find((r) => r.includes("› a"))!;
    const top = rows[rows.indexOf(box) - 1];
    expect(box.length).toBe(top.length);
    expect(box.endsWith("│")).toBe(true);
  });

  it("Ctrl+G and Ctrl+X Ctrl+E edit the prompt in $EDITOR", async () => {
    const editor = join(t.dirs.root, "fake-editor.mjs");
    // An editor that appends a marked line to the file it is given.
    writeFileSync(
      editor,
      'import { appendFileSync } from "node:fs";\nappendFileSync(process.argv[2], "\\nfrom the editor\\n");\n',
    );
    t.provider.enqueue(openaiText("edited prompt seen"));
    const vt = await t.start([], {}, undefined, {
      EDITOR: `${process.execPath} ${editor}`,
      VISUAL: undefined,
    });
    await vt.type("draft");
    await vt.write("\x07"); // Ctrl+G
    await vt.waitForScreen(/│ › draft *│\n│ {3}from the editor *│/);
    await vt.write("\x18\x05"); // Ctrl+X Ctrl+E
    await vt.waitForScreen(/│ › draft *│\n│ {3}from the editor *│\n│ {3}from the editor *│/);
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    expect(userTexts(t.provider.requests[0].body)).toEqual(["draft\nfrom the editor\nfrom the editor"]);
    // While work runs the editor would hold the process (and stall the stream): not then.
    t.provider.enqueue(openaiStream().text("busy now").stallAfter(2).build());
    await vt.type("long task");
    await vt.press("enter");
    await vt.waitFor("busy now");
    await vt.type("follow");
    await vt.write("\x07");
    await vt.waitFor("Ctrl+G opens $EDITOR at an idle prompt");
    await vt.waitForScreen(/│ › follow *│/);
  });
});
