// The interactive UI on a real machine: SIGTERM / SIGHUP cancel the turn and leave with no
// command left running (R-REC-4, R-BASH-1); tool output cannot drive the terminal (SPEC §10).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecord } from "../../src/record/load.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useTui } from "./support.js";
import { running } from "../support/process-state.js";

const t = useTui();

async function waitForFile(file: string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    try {
      const text = readFileSync(file, "utf8").trim();
      if (text) return text;
    } catch {}
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${file} never appeared`);
}

function onlyRecord(home: string): string {
  const root = join(home, "sessions");
  const [ws] = readdirSync(root);
  const [id] = readdirSync(join(root, ws));
  return join(root, ws, id, "record.jsonl");
}

describe("interactive UI on a real machine", () => {
  for (const [sig, code] of [
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const) {
    it(`${sig} cancels the running turn, kills the command's group and exits ${code}`, async () => {
      t.provider.enqueue(
        openaiToolCalls([
          {
            id: "d",
            name: "bash",
            args: { command: "(trap '' TERM; echo $BASHPID > child.pid; exec sleep 120) & wait" },
          },
        ]),
      );
      const vt = await t.start([], { permissions: { mode: "yolo" } });
      await vt.type("run the daemon");
      await vt.press("enter");
      const child = Number(await waitForFile(join(t.dirs.workspace, "child.pid")));
      vt.pty.kill(sig);
      expect(await vt.exited).toBe(code);
      expect(running(child)).toBe(false);
      const lines = loadRecord(onlyRecord(t.dirs.home)).lines as any[];
      expect(lines.find((l) => l.type === "turn_end")).toMatchObject({ stopReason: "cancelled" });
    }, 60_000);
  }

  it("--plain line mode: SIGTERM cancels the turn, kills the command's group and exits 143", async () => {
    t.provider.enqueue(
      openaiToolCalls([
        {
          id: "p",
          name: "bash",
          args: { command: "(trap '' TERM; echo $BASHPID > child.pid; exec sleep 120) & wait" },
        },
      ]),
    );
    const vt = await t.start(
      ["--plain"],
      { permissions: { mode: "yolo" } },
      /tern · local\/mock-1 · session \S+/,
    );
    await vt.waitFor(/^› $/m);
    await vt.type("run the daemon");
    await vt.press("enter");
    const child = Number(await waitForFile(join(t.dirs.workspace, "child.pid")));
    vt.pty.kill("SIGTERM");
    expect(await vt.exited).toBe(143);
    expect(running(child)).toBe(false);
    const lines = loadRecord(onlyRecord(t.dirs.home)).lines as any[];
    expect(lines.find((l) => l.type === "turn_end")).toMatchObject({ stopReason: "cancelled" });
  }, 60_000);

  it("strips escape sequences from tool output before drawing it", async () => {
    t.provider.enqueue(
      openaiToolCalls([
        {
          id: "e",
          name: "bash",
          args: { command: "printf '\\033]0;PWNED-TITLE\\007\\033]52;c;cHduZWQ=\\007bad news'; exit 4" },
        },
      ]),
      openaiText("noted"),
    );
    const vt = await t.start([], { permissions: { mode: "yolo" } });
    await vt.type("go");
    await vt.press("enter");
    await vt.waitFor("noted");
    // The failed call's line and its output, in red, without the sequences.
    expect(vt.text()).toMatch(/● bash {2}printf[^\n]*\n\s+⎿ bad news\n\s+\[exit status 4\]/);
    expect(vt.raw).not.toContain("\u001b]0;PWNED-TITLE");
    expect(vt.raw).not.toContain("\u001b]52;");
  });
});
