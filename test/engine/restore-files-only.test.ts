// `restore_files {turn}` (R-UI-29, the rewind picker's "files only", Claude Code's "Restore code":
// https://code.claude.com/docs/en/checkpointing — "revert file changes while keeping the
// conversation"): the files go back to how they were after turn N, every turn stays in the context,
// and the next request tells the model which files went back. Three turns each write their own
// file, so restoring to the wrong turn leaves a different set of files.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { type TestSession, useHarness } from "./harness.js";

const h = useHarness();

/** Three turns; turn N writes `N.txt`. */
async function threeWritingTurns(t?: TestSession): Promise<TestSession> {
  t ??= await h.start({ checkpoints: true });
  for (const n of [1, 2, 3]) {
    h.provider.enqueue(
      openaiToolCalls([{ id: `w${n}`, name: "write_file", args: { path: `${n}.txt`, content: `${n}\n` } }]),
      openaiText(`wrote ${n}`),
    );
    await t.prompt(`turn ${n}`);
  }
  return t;
}

const present = () => [1, 2, 3].filter((n) => existsSync(join(h.dirs.workspace, `${n}.txt`)));

const textOf = (content: any): string =>
  typeof content === "string" ? content : content.map((p: any) => p.text ?? "").join("");

/** The user-role texts of the newest request, in order. */
const userTexts = (): string[] =>
  h.provider.requests
    .at(-1)!
    .body.messages.filter((m: any) => m.role === "user")
    .map((m: any) => textOf(m.content));

const assistantTexts = (): string[] =>
  h.provider.requests
    .at(-1)!
    .body.messages.filter((m: any) => m.role === "assistant" && m.content)
    .map((m: any) => textOf(m.content));

const notices = (texts: string[]) => texts.filter((t) => t.startsWith("[tern: files restored]"));

describe("restore_files (the files only)", () => {
  it("puts the files back as before turn N+1, keeps every turn, and tells the model once with the next prompt", async () => {
    const t = await threeWritingTurns();
    const report = await t.session.send({ type: "restore_files", turn: 1 });
    expect(report.turns).toEqual([]);
    expect(report.restored.map((r) => `${r.action} ${r.path}`).sort()).toEqual([
      "deleted 2.txt",
      "deleted 3.txt",
    ]);
    expect(present()).toEqual([1]);
    const undo = t.session.transcript().findLast((l) => l.type === "undo");
    expect(undo).toMatchObject({ toTurn: 1, filesOnly: true, paths: ["2.txt", "3.txt"], pathCount: 2 });

    h.provider.enqueue(openaiText("ok"));
    await t.prompt("after");
    const users = userTexts();
    // The conversation is intact: every prompt and answer is still sent.
    expect(users.slice(0, 4)).toEqual(["turn 1", "turn 2", "turn 3", "after"]);
    expect(assistantTexts()).toEqual(["wrote 1", "wrote 2", "wrote 3"]);
    // The notice follows the prompt and names the prompt the files went back to and the paths.
    expect(users).toHaveLength(5);
    const [note] = notices(users);
    expect(users[4]).toBe(note);
    expect(note).toContain('before the user\'s message "turn 2"');
    expect(note).toContain("2.txt, 3.txt");

    h.provider.enqueue(openaiText("ok again"));
    await t.prompt("later");
    expect(notices(userTexts())).toEqual([note]);
    expect(
      t.events.some((e) => e.type === "notice" && /model is told the files were restored/.test(e.text)),
    ).toBe(true);
  });

  it("is taken back by redo (the files return, no turn moves, nothing is owed), and undo still takes turns", async () => {
    const t = await threeWritingTurns();
    await t.session.send({ type: "restore_files", turn: 0 });
    expect(present()).toEqual([]);
    const redo = await t.session.send({ type: "redo" });
    expect(redo.turns).toEqual([]);
    expect(t.session.transcript().at(-1)).toMatchObject({ type: "redo", filesOnly: true });
    expect(present()).toEqual([1, 2, 3]);
    h.provider.enqueue(openaiText("ok"));
    await t.prompt("after");
    expect(notices(userTexts())).toEqual([]);
    expect(userTexts()).toEqual(["turn 1", "turn 2", "turn 3", "after"]);

    // A files-only restore and then an undo of the last turn: the undo's files and turns win.
    await t.session.send({ type: "restore_files", turn: 1 });
    const undo = await t.session.send({ type: "undo", turns: 1 });
    expect(undo.turns).toEqual([4]);
    h.provider.enqueue(openaiText("ok"));
    await t.prompt("next");
    expect(notices(userTexts())).toEqual([]);
  });

  it("a resumed session still owes the notice, and redo works after a resume", async () => {
    const t = await threeWritingTurns();
    await t.session.send({ type: "restore_files", turn: 2 });
    expect(present()).toEqual([1, 2]);
    await t.session.close();

    const resumed = await h.start({ checkpoints: true, resume: { id: t.session.id } });
    h.provider.enqueue(openaiText("ok"));
    await resumed.prompt("after resume");
    const users = userTexts();
    expect(users.slice(0, 4)).toEqual(["turn 1", "turn 2", "turn 3", "after resume"]);
    expect(notices(users)).toHaveLength(1);
    expect(notices(users)[0]).toContain('"turn 3"');
    expect(notices(users)[0]).toContain("3.txt");
    await resumed.session.close();

    // Restored, closed, resumed: /redo puts the files back.
    const again = await h.start({ checkpoints: true, resume: { id: t.session.id } });
    await again.session.send({ type: "restore_files", turn: 1 });
    expect(present()).toEqual([1]);
    await again.session.close();
    const third = await h.start({ checkpoints: true, resume: { id: t.session.id } });
    await third.session.send({ type: "redo" });
    // As they were before this restore: 3.txt went with the first one, which a prompt made final.
    expect(present()).toEqual([1, 2]);
  });

  it("refuses, as undo does, when files changed since the newest snapshot, unless forced; redo puts those changes back", async () => {
    const t = await threeWritingTurns();
    writeFileSync(join(h.dirs.workspace, "3.txt"), "mine\n");
    await expect(t.session.send({ type: "restore_files", turn: 1 })).rejects.toThrow(
      /files changed since the session's last snapshot: 3\.txt \(use --force/,
    );
    expect(present()).toEqual([1, 2, 3]);
    expect(t.session.transcript().some((l) => l.type === "undo")).toBe(false);

    await t.session.send({ type: "restore_files", turn: 1, force: true });
    expect(present()).toEqual([1]);
    await t.session.send({ type: "redo" });
    expect(readFileSync(join(h.dirs.workspace, "3.txt"), "utf8")).toBe("mine\n");
    await expect(t.session.send({ type: "restore_files", turn: 3 })).rejects.toThrow(
      "no turn 4 to restore the files to before",
    );
  });
});

describe("restore_files and an unanswered prompt", () => {
  it("keeps a failed turn answerable: /retry carries the notice, and the next prompt does not repeat it", async () => {
    const t = await h.start({ checkpoints: true, config: (c) => (c.retry.maxRetries = 0) });
    await threeWritingTurns(t);
    // Turn 4 fails (nothing scripted: the fake provider answers HTTP 500).
    expect((await t.prompt("turn 4")).stopReason).toBe("failed");
    await t.session.send({ type: "restore_files", turn: 2 });
    expect(present()).toEqual([1, 2]);
    const undo = t.session.transcript().findLast((l) => l.type === "undo");
    expect(undo).toMatchObject({ filesOnly: true, toTurn: 2 });

    h.provider.enqueue(openaiText("answered"));
    expect((await t.session.send({ type: "retry" })).stopReason).toBe("completed");
    const users = userTexts();
    expect(users.slice(0, 4)).toEqual(["turn 1", "turn 2", "turn 3", "turn 4"]);
    expect(notices(users)).toHaveLength(1);
    expect(users.at(-1)).toBe(notices(users)[0]);

    h.provider.enqueue(openaiText("ok"));
    await t.prompt("turn 5");
    expect(notices(userTexts())).toHaveLength(1);
  });
});

describe("a restore rewrites the shadow index", () => {
  it("undo, redo, then undo again: the restored files are seen, not the snapshot before the redo", async () => {
    const t = await threeWritingTurns();
    await t.session.send({ type: "undo", turns: 3 });
    expect(present()).toEqual([]);
    await t.session.send({ type: "redo" });
    expect(present()).toEqual([1, 2, 3]);
    // Without --force: the workspace is exactly what the redo left.
    const undo = await t.session.send({ type: "undo", turns: 1 });
    expect(undo.turns).toEqual([3]);
    expect(present()).toEqual([1, 2]);
  });
});
