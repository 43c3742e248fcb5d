// A resumed session shows its conversation (R-UI-17): `tern --continue` and `tern --resume ID`
// replay the prompts, answers, tool lines and compaction markers of the record, and the status
// line's context and token figures are the recorded ones, never `0 tokens`.
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { buildRecord } from "../support/long-record.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { statusSession, useTui } from "./support.js";

const t = useTui();

/** One headless turn in the test's workspace: a bash call, then an answer. */
async function recordedSession(prompt: string, answer: string): Promise<void> {
  t.provider.enqueue(
    openaiToolCalls([{ id: "c1", name: "bash", args: { command: "echo replayed-output" } }], {
      prompt_tokens: 1000,
      completion_tokens: 10,
    }),
    openaiText(answer, { prompt_tokens: 4000, completion_tokens: 20 }),
  );
  const run = await runCli(
    ["run", "--yes", "--model", "local/mock-1", "--base-url", t.provider.baseUrl, prompt],
    { home: t.dirs.home, cwd: t.dirs.workspace },
  );
  expect(run.stderr).not.toMatch(/error/i);
  expect(run.code).toBe(0);
}

describe("a resumed session on screen", () => {
  it("tern --continue replays prompts, answers and tool lines, with the recorded context figures", async () => {
    await recordedSession("look around please", "**all done** here");
    const vt = await t.start(["--continue"]);
    const text = await vt.waitFor("all done here");
    expect(text).toContain("› look around please");
    expect(text).toMatch(/● bash {2}echo replayed-output · \d+\.\ds/);
    expect(text).toContain("replayed-output");
    expect(text).toMatch(/— turn 1 · completed · rounds=1 · tools=1 · errors=0/);
    // Answers are markdown: the bold markers are gone.
    expect(text).not.toContain("**all done**");
    // 1010 + 4020 tokens; the context holds the newest request's 4000.
    await vt.waitForScreen(/context [1-9]\d*% · 5030 tokens/);
    expect(vt.screen().join("\n")).not.toMatch(/context 0% · 0 tokens/);
  });

  it("tern --resume ID replays that session, and the conversation goes on from it", async () => {
    await recordedSession("first session prompt", "first session answer");
    await recordedSession("second session prompt", "second session answer");
    const list = await runCli(["sessions", "--json"], { home: t.dirs.home, cwd: t.dirs.workspace });
    const sessions = JSON.parse(list.stdout) as { id: string; title: string }[];
    const first = sessions.find((s) => s.title.includes("first"))!;
    t.provider.enqueue(openaiText("third answer"));
    const vt = await t.start(["--resume", first.id]);
    await vt.waitFor("first session answer");
    expect(vt.text()).not.toContain("second session");
    expect(statusSession(vt.screen())).toBe(first.id);
  });
});

describe("the session picker", () => {
  it("tern --resume without an id lists sessions newest first; typing filters, Enter opens", async () => {
    await recordedSession("alpha about parsers", "alpha answer");
    await recordedSession("beta about lexers", "beta answer");
    const vt = await t.start(["--resume"], {}, /Resume a session/);
    const picker = await vt.waitFor(/Enter open · Esc leave/);
    // Newest first, each with age, turns and cost.
    expect(picker.indexOf("beta about lexers")).toBeLessThan(picker.indexOf("alpha about parsers"));
    expect(picker).toMatch(/▸ beta about lexers\s+just now · 1 turn · \$\?/);
    await vt.type("parsr");
    await vt.waitForGone("beta about lexers");
    await vt.waitForScreen("▸ alpha about parsers");
    await vt.press("enter");
    await vt.waitFor("alpha answer");
    await vt.waitForScreen(/context [1-9]\d*% · 5030 tokens/);
    expect(vt.text()).not.toContain("beta answer");
    expect(vt.text()).toMatch(/session \S+ \(resumed\)/);
  });

  it("keys that reach the picker in one read (typed while it was busy) each count, Enter too, and what follows", async () => {
    // Under load "r" and Enter were read together; Ink reports such a chunk as one text input.
    await recordedSession("alpha about parsers", "alpha answer");
    await recordedSession("beta about lexers", "beta answer");
    const vt = await t.start(["--resume"], {}, /Enter open · Esc leave/);
    await vt.write("pars");
    await vt.waitForScreen("type to filter: pars");
    // What was typed after Enter in that read is the composer's, not lost with the picker.
    await vt.write("r\rnext words");
    await vt.waitFor("alpha answer");
    await vt.waitForScreen(/│ › next words *│/);
    expect(vt.text()).not.toContain("beta answer");
  });

  it("Esc leaves the picker of tern --resume without opening a session", async () => {
    await recordedSession("only session", "only answer");
    const vt = await t.start(["--resume"], {}, /Resume a session/);
    await vt.waitFor("▸ only session");
    await vt.press("escape");
    expect(await vt.exited).toBe(0);
    const list = await runCli(["sessions", "--json"], { home: t.dirs.home, cwd: t.dirs.workspace });
    expect(JSON.parse(list.stdout)).toHaveLength(1);
  });

  it("/resume without an id opens the picker in the UI; Enter switches, Esc keeps the session", async () => {
    await recordedSession("older work", "older answer");
    t.provider.enqueue(openaiText("fresh answer"));
    const vt = await t.start();
    await vt.type("fresh prompt");
    await vt.press("enter");
    await vt.waitFor("fresh answer");
    const fresh = statusSession(await vt.waitForScreen(/· session \S+\s*$/m).then(() => vt.screen()));
    await vt.type("/resume");
    await vt.press("enter");
    await vt.waitForScreen("Resume a session");
    await vt.waitForScreen(/fresh prompt .*open now/);
    await vt.press("escape");
    await vt.waitForGone("Resume a session");
    expect(statusSession(vt.screen())).toBe(fresh);
    await vt.type("/resume");
    await vt.press("enter");
    await vt.waitForScreen("Resume a session");
    await vt.type("older");
    await vt.waitForScreen("▸ older work");
    await vt.press("enter");
    await vt.waitFor("older answer");
    await vt.waitForScreen(/\(resumed\)/);
    expect(statusSession(vt.screen())).not.toBe(fresh);
  });

  it("tern run --resume without an id is a one-line usage error", async () => {
    const run = await runCli(["run", "--model", "local/mock-1", "--resume", "--", "hi"], {
      home: t.dirs.home,
      cwd: t.dirs.workspace,
    });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("--resume needs a session id");
  });
});

describe("a long resumed session", () => {
  it("opens on its last turns (about 200 rows) with one line saying how many turns are above", async () => {
    buildRecord(t.dirs.home, t.dirs.workspace, {
      rounds: 120,
      roundsPerTurn: 2,
      resultBytes: 300,
      model: "local/mock-1",
    });
    const vt = await t.start(["--continue"]);
    const text = await vt.waitFor(/… \d+ earlier turns above · tern export \S+ shows them all/);
    const hidden = Number(text.match(/… (\d+) earlier turns above/)![1]);
    expect(hidden).toBeGreaterThan(20);
    expect(hidden).toBeLessThan(59);
    expect(text).toContain("› Task 60: look at the files");
    expect(text).toMatch(/● read_file {2}src\/file1\.ts/);
    expect(text).toContain(`› Task ${hidden + 1}: look at the files`);
    expect(text).not.toContain(`› Task ${hidden}: look at the files`);
    // What the replay wrote stays within about 200 rows above the first screen.
    const from = vt.lines().findIndex((l) => l.includes("earlier turns above"));
    const to = vt.lines().findIndex((l) => l.includes("— turn 60 ·"));
    expect(to - from).toBeLessThanOrEqual(200);
  });
});
