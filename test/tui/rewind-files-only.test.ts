// R-UI-29: Esc Esc → a prompt → "the files only" (Claude Code's "Restore code": revert the file
// changes while keeping the conversation, https://code.claude.com/docs/en/checkpointing). The
// files go back to how they were before that prompt, every turn stays in the context, the
// transcript marks what went back, and the next request tells the model. Files changed outside
// tern since the newest snapshot make it ask first, as undo refuses them without --force.
// In a real pseudo-terminal read by @xterm/headless, with real checkpoints in a temp workspace.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { promptsInContext } from "../../src/tui/rewind-picker.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import type { VTerm } from "../support/vterm.js";
import { userTexts, useTui } from "./support.js";

const t = useTui();

/** Two turns; turn N writes `N.txt` (auto-edit: no approval asked). */
async function twoWritingTurns(): Promise<VTerm> {
  for (const n of [1, 2])
    t.provider.enqueue(
      openaiToolCalls([{ id: `w${n}`, name: "write_file", args: { path: `${n}.txt`, content: `${n}\n` } }]),
      openaiText(`wrote ${n}`),
    );
  const vt = await t.start(["--mode", "auto-edit"]);
  for (const n of [1, 2]) {
    await vt.type(`write file ${n}`);
    await vt.press("enter");
    await vt.waitFor(new RegExp(`— turn ${n} · completed`));
  }
  return vt;
}

const file = (n: number) => join(t.dirs.workspace, `${n}.txt`);

/** Esc Esc, the prompt of turn 2 (the newest, selected first), then the third choice. */
async function pickFilesOnly(vt: VTerm): Promise<void> {
  await vt.press("escape");
  await vt.press("escape");
  await vt.waitForScreen(/Rewind to before a prompt/);
  await vt.waitForScreen(/▸ write file 2 +turn 2 · /);
  await vt.press("enter");
  await vt.waitForScreen(/Rewind to before turn 2: restore/);
  await vt.waitForScreen(/ {2}files only +files back as before this prompt; the conversation stays/);
  await vt.press("down");
  await vt.press("down");
  await vt.waitForScreen(/▸ files only/);
  await vt.press("enter");
}

describe("rewind: the files only", () => {
  it("puts the files back, keeps the conversation, marks it, and the next request tells the model", async () => {
    const vt = await twoWritingTurns();
    expect(existsSync(file(2))).toBe(true);
    await pickFilesOnly(vt);
    await vt.waitFor(
      "⟲ files restored to before turn 2 (the conversation is kept; /redo takes it back): 1 path",
    );
    await vt.waitFor(/deleted +2\.txt/);
    expect(existsSync(file(1))).toBe(true);
    expect(existsSync(file(2))).toBe(false);
    // The prompt is not put back: the conversation did not move.
    expect(vt.text()).not.toContain("rewound:");

    t.provider.enqueue(openaiText("noted"));
    await vt.type("what changed?");
    await vt.press("enter");
    await vt.waitFor(/— turn 3 · completed/);
    const users = userTexts(t.provider.requests.at(-1)!.body);
    expect(users.slice(0, 3)).toEqual(["write file 1", "write file 2", "what changed?"]);
    expect(users).toHaveLength(4);
    expect(users[3]).toMatch(/^\[tern: files restored\] .*before the user's message "write file 2".* 2\.txt/);
  });

  it("asks before overwriting files changed outside tern since; yes restores them, /redo puts the change back", async () => {
    const vt = await twoWritingTurns();
    writeFileSync(file(2), "mine\n");
    await pickFilesOnly(vt);
    await vt.waitFor(/files changed since the session's last snapshot: 2\.txt/);
    await vt.waitForScreen(/Restore the files anyway\?/);
    await vt.waitForScreen(/▸ no, keep the files as they are/);
    expect(readFileSync(file(2), "utf8")).toBe("mine\n");
    await vt.press("down");
    await vt.press("enter");
    await vt.waitFor("⟲ files restored to before turn 2");
    expect(existsSync(file(2))).toBe(false);
    await vt.type("/redo");
    await vt.press("enter");
    await vt.waitFor("redid the files only; 1 path restored");
    expect(readFileSync(file(2), "utf8")).toBe("mine\n");
  });
});

describe("the prompts the rewind picker offers (pure)", () => {
  it("leave out the turns an undo withdrew, bring a redo's back, and keep all after a files-only restore", () => {
    const base = { v: 1, ts: "2026-12-07T10:00:00Z" };
    let seq = 0;
    const prompt = (turn: number) =>
      ({
        ...base,
        seq: ++seq,
        type: "user_prompt",
        turn,
        content: [{ type: "text", text: `p${turn}` }],
      }) as any;
    const undo = (toTurn: number, filesOnly?: true) =>
      ({ ...base, seq: ++seq, type: "undo", toTurn, tree: "a", restored: "b", filesOnly }) as any;
    const redo = () => ({ ...base, seq: ++seq, type: "redo", restored: "a" }) as any;
    const texts = (lines: any[]) => promptsInContext(lines).map((p) => p.text);
    const three = [prompt(1), prompt(2), prompt(3)];
    expect(texts([...three, undo(1)])).toEqual(["p1"]);
    expect(texts([...three, undo(1), redo()])).toEqual(["p1", "p2", "p3"]);
    expect(texts([...three, undo(1, true)])).toEqual(["p1", "p2", "p3"]);
  });
});
