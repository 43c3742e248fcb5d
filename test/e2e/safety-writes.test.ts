// Writes that links cannot redirect (§10, R-TOOL-3), through `tern run` the way the attack was
// made: a `bash` call of the batch plants a hard or symbolic link, a later write of the same
// batch aims at it. Each test checks what really happened on disk.
import { existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";

const e = useE2E();
const ws = (name: string) => join(e.dirs.workspace, name);
const outside = (name: string) => join(e.dirs.root, name);

type Call = { id: string; name: string; args: Record<string, unknown> };
const write = (id: string, path: string, content = "pwned\n"): Call => ({
  id,
  name: "write_file",
  args: { path, content },
});
const bash = (id: string, command: string): Call => ({ id, name: "bash", args: { command } });
const read = (id: string, path: string, offset?: number): Call => ({
  id,
  name: "read_file",
  args: offset ? { path, offset } : { path },
});

async function runBatch(calls: Call[], args: string[]) {
  e.provider.enqueue(openaiToolCalls(calls), openaiText("ok"));
  const run = await ternRun(e, args, "do it", { env: { HOME: outside("fakehome") } });
  expect(run.stderr).not.toMatch(/internal error/);
  expect(run.code, run.stderr).toBe(0);
  const sent = new Map(toolMessages(e.provider.requests[1].body).map((m) => [m.id, m.content]));
  const approvals = run.events.filter((ev) => ev.type === "approval");
  return { run, sent, approvals };
}

function victim(): string {
  mkdirSync(outside("out"), { recursive: true });
  writeFileSync(outside("out/victim.txt"), "original\n");
  return outside("out/victim.txt");
}

describe("a write after a bash call of the same batch is judged after that call ran (§10)", () => {
  const autoEdit = () => writeUserConfig(e, { permissions: { mode: "auto-edit" } });

  it("a hard link made by bash does not carry an auto-edit write outside", async () => {
    autoEdit();
    const target = victim();
    const { sent, approvals } = await runBatch(
      [bash("b0", "ln ../out/victim.txt hl.txt"), read("r1", "hl.txt"), write("w1", "hl.txt")],
      ["--allow", "bash(ln *)"],
    );
    expect(existsSync(ws("hl.txt"))).toBe(true);
    expect(readFileSync(target, "utf8")).toBe("original\n");
    expect(approvals).toEqual([expect.objectContaining({ id: "w1", decision: "denied" })]);
    expect(sent.get("w1")).toMatch(/without --yes.*several hard links \(2;/s);
  });

  it("a symlink made by bash does not carry an auto-edit write outside", async () => {
    autoEdit();
    const target = victim();
    const { sent } = await runBatch(
      [bash("b0", "ln -s ../out/victim.txt sl.txt"), read("r1", "sl.txt"), write("w1", "sl.txt")],
      ["--allow", "bash(ln *)"],
    );
    expect(readFileSync(target, "utf8")).toBe("original\n");
    expect(sent.get("w1")).toMatch(/writes outside the workspace: .*out\/victim\.txt/);
  });
});

describe("a write to a link asks in every mode but yolo, judged on the opened file (§10)", () => {
  it("auto-edit asks for a symlink inside the workspace and a multiply-linked file", async () => {
    writeUserConfig(e, { permissions: { mode: "auto-edit" } });
    writeFileSync(ws("a.txt"), "a\n");
    symlinkSync("a.txt", ws("s.txt"));
    writeFileSync(ws("b.txt"), "b\n");
    linkSync(ws("b.txt"), ws("b2.txt"));
    const { approvals } = await runBatch(
      [
        read("r0", "s.txt"),
        read("r1", "b2.txt"),
        write("w0", "s.txt"),
        write("w1", "b2.txt"),
        write("w2", "plain.txt"),
      ],
      [],
    );
    expect(approvals.map((ev) => [ev.id, ev.decision])).toEqual([
      ["w0", "denied"],
      ["w1", "denied"],
    ]);
    expect(readFileSync(ws("a.txt"), "utf8")).toBe("a\n");
    expect(readFileSync(ws("b.txt"), "utf8")).toBe("b\n");
    expect(readFileSync(ws("plain.txt"), "utf8")).toBe("pwned\n");
  });

  it("--yes (yolo) writes through the link, to its real target", async () => {
    writeFileSync(ws("a.txt"), "a\n");
    symlinkSync("a.txt", ws("s.txt"));
    const { sent } = await runBatch([read("r0", "s.txt"), write("w0", "s.txt")], ["--yes"]);
    expect(sent.get("w0")).toMatch(/^Overwrote/);
    expect(readFileSync(ws("a.txt"), "utf8")).toBe("pwned\n");
  });
});

describe("calls of one batch are ordered by real file, bash as a barrier (R-TOOL-3)", () => {
  it("a read through a hard link waits for the write to the same inode", async () => {
    writeFileSync(ws("a.txt"), "");
    linkSync(ws("a.txt"), ws("h.txt"));
    const big = `${"line\n".repeat(1999)}last\n`;
    const { sent } = await runBatch(
      [read("r0", "a.txt"), write("w1", "a.txt", big), read("r2", "h.txt", 2000)],
      ["--yes"],
    );
    expect(sent.get("w1")).toMatch(/^Overwrote/);
    expect(sent.get("r2")).toMatch(/2000\tlast/);
  });

  it("calls after bash start after every bash call before them ended", async () => {
    const { sent } = await runBatch(
      [
        bash("b0", "sleep 0.3; echo late > f.txt"),
        bash("b1", "sleep 0.3; echo also > g.txt"),
        read("r2", "f.txt"),
        read("r3", "g.txt"),
      ],
      ["--yes"],
    );
    expect(sent.get("r2")).toMatch(/1\tlate/);
    expect(sent.get("r3")).toMatch(/1\talso/);
  });
});
