// Worktrees (R-WT-1, R-WT-2) through the built CLI, in real git repositories: a session in a
// worktree writes only there; an unchanged one leaves nothing behind; `.worktreeinclude`;
// `tern worktrees` and `remove`; resume returns to the worktree; sub-agents with
// `isolation: worktree`, two in parallel writing the same file, each on its own branch.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { scriptBySession } from "./subagents-support.js";
import { ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";
import { runCli } from "../support/cli.js";

const e = useE2E();

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });

function initRepo(dir: string): void {
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(join(dir, "a.txt"), "original\n");
  writeFileSync(join(dir, ".gitignore"), ".env\nbuild/\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "init");
}

const write = (id: string, path: string, content: string) => ({
  id,
  name: "write_file",
  args: { path, content },
});
const wtDir = () => join(e.dirs.workspace, ".tern", "worktrees");
const branches = () => git(e.dirs.workspace, "branch", "--format=%(refname:short)").trim().split("\n").sort();

describe("tern run --worktree", () => {
  beforeEach(() => initRepo(e.dirs.workspace));

  it("writes only in its worktree, keeps it with its branch, and leaves the main tree and git status alone", async () => {
    e.provider.enqueue(
      openaiToolCalls([
        { id: "b1", name: "bash", args: { command: "echo 'changed in the worktree' > a.txt" } },
      ]),
      openaiText("done"),
    );
    const run = await ternRun(e, ["--yes", "--worktree", "fix-a"]);
    expect(run.code).toBe(0);
    const path = join(wtDir(), "fix-a");
    expect(readFileSync(join(path, "a.txt"), "utf8")).toBe("changed in the worktree\n");
    expect(readFileSync(join(e.dirs.workspace, "a.txt"), "utf8")).toBe("original\n");
    expect(git(e.dirs.workspace, "status", "--porcelain")).toBe("");
    expect(branches()).toEqual(["main", "tern/fix-a"]);
    expect(run.stderr).toContain(`tern: worktree kept: ${path} (branch tern/fix-a; 1 changed file(s))`);
    // The session is an ordinary one, recorded as run in the worktree.
    const start = run.events.find((ev) => ev.type === "session_start") ?? {};
    expect(JSON.stringify(start)).not.toContain("sk-test-key");

    const listed = await e.run(["worktrees", "--json"]);
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout);
    expect(rows).toMatchObject([{ name: "fix-a", branch: "tern/fix-a", path, changed: 1, commits: 0 }]);
    expect(rows[0].session).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);

    const refused = await e.run(["worktrees", "remove", "fix-a"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(
      "tern: worktree 'fix-a' has 1 uncommitted change(s); commit them or use --force",
    );
    const removed = await e.run(["worktrees", "remove", "fix-a", "--force"]);
    expect(removed.code).toBe(0);
    expect(existsSync(path)).toBe(false);
    expect(branches()).toEqual(["main"]);
  });

  it("a run that changes nothing leaves no worktree, no branch and no line behind", async () => {
    e.provider.enqueue(openaiText("nothing to change"));
    const run = await ternRun(e, ["--worktree"]);
    expect(run.code).toBe(0);
    expect(readdirSync(wtDir())).toEqual([]);
    expect(branches()).toEqual(["main"]);
    expect(run.stderr).toMatch(
      /^tern: working in worktree .*\.tern\/worktrees\/[a-z]+-[0-9a-f]{4} \(branch tern\//m,
    );
    expect(run.stderr).not.toContain("worktree kept");
  });

  it("copies what .worktreeinclude names that git ignores, never a tracked file", async () => {
    writeFileSync(join(e.dirs.workspace, ".env"), "TOKEN=local\n");
    mkdirSync(join(e.dirs.workspace, "build"));
    writeFileSync(join(e.dirs.workspace, "build", "out.js"), "built\n");
    writeFileSync(join(e.dirs.workspace, ".worktreeinclude"), ".env\na.txt\n");
    e.provider.enqueue(
      openaiToolCalls([{ id: "b1", name: "bash", args: { command: "cat .env; ls build 2>&1 | head -1" } }]),
      openaiText("seen"),
    );
    const run = await ternRun(e, ["--yes", "--worktree", "inc"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("copied .env)");
    const result = toolMessages(e.provider.requests.at(-1)!.body)[0].content;
    expect(result).toContain("TOKEN=local");
    expect(result).toMatch(/No such file/);
    // Copied files are ignored ones: they are no change, so the unchanged worktree goes at the end.
    expect(existsSync(join(wtDir(), "inc"))).toBe(false);
    expect(branches()).toEqual(["main"]);
  });

  it("--resume of a worktree session runs in that worktree again", async () => {
    e.provider.enqueue(openaiToolCalls([write("w1", "new.txt", "one\n")]), openaiText("first"));
    const first = await ternRun(e, ["--yes", "--worktree", "again"]);
    expect(first.code).toBe(0);
    const id =
      first.events.find((ev) => ev.type === "turn_start")?.session ??
      JSON.parse((await e.run(["worktrees", "--json"])).stdout)[0].session;
    e.provider.enqueue(
      openaiToolCalls([{ id: "b1", name: "bash", args: { command: "pwd; cat new.txt" } }]),
      openaiText("second"),
    );
    const second = await ternRun(e, ["--yes", "--resume", id]);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`tern: resuming in worktree ${join(wtDir(), "again")}`);
    const result = toolMessages(e.provider.requests.at(-1)!.body).at(-1)!.content;
    expect(result).toContain(join(wtDir(), "again"));
    expect(result).toContain("one");
  });

  it("outside a git repository --worktree is a one-line usage error", async () => {
    const outside = join(e.dirs.root, "plain");
    mkdirSync(outside);
    const res = await runCli(["run", "--worktree", "x", "hello"], {
      home: e.dirs.home,
      cwd: outside,
      env: { OPENAI_API_KEY: "sk-test-key" },
    });
    expect(res.code).toBe(2);
    expect(res.stderr.trim()).toBe(`tern: --worktree: ${outside} is not inside a git repository`);
  });
});

describe("sub-agents with isolation: worktree", () => {
  beforeEach(() => initRepo(e.dirs.workspace));

  it("two isolated children write the same file differently: each on its own branch, the main tree unchanged", async () => {
    // The parent's uncommitted change: the children start from it.
    writeFileSync(join(e.dirs.workspace, "a.txt"), "parent's unsaved edit\n");
    const task = (id: string, prompt: string) => ({
      id,
      name: "task",
      args: { description: `write ${id}`, prompt, isolation: "worktree" },
    });
    const arrivals = scriptBySession(e, {
      "do it": [
        openaiToolCalls([task("t1", "child one"), task("t2", "child two")]),
        openaiText("parent done"),
      ],
      "child one": [
        openaiToolCalls([{ id: "r1", name: "bash", args: { command: "cat a.txt" } }]),
        openaiToolCalls([{ id: "w1", name: "bash", args: { command: "echo 'from child one' > a.txt" } }]),
        openaiText("one wrote"),
      ],
      "child two": [
        openaiToolCalls([{ id: "r2", name: "bash", args: { command: "cat a.txt" } }]),
        openaiToolCalls([{ id: "w2", name: "bash", args: { command: "echo 'from child two' > a.txt" } }]),
        openaiText("two wrote"),
      ],
    });
    const run = await ternRun(e, ["--yes"]);
    expect(run.code).toBe(0);
    // Each child saw the parent's uncommitted state.
    for (const who of ["child one", "child two"]) {
      const seen = arrivals.filter((a) => a.asker === who)[1].request.body;
      expect(toolMessages(seen)[0].content).toContain("parent's unsaved edit");
    }
    expect(readFileSync(join(e.dirs.workspace, "a.txt"), "utf8")).toBe("parent's unsaved edit\n");
    const back = toolMessages(arrivals.at(-1)!.request.body);
    const branchOf = (text: string) => /branch (tern\/general-[0-9a-f]{4})/.exec(text)?.[1];
    const b1 = branchOf(back.find((m) => m.id === "t1")!.content)!;
    const b2 = branchOf(back.find((m) => m.id === "t2")!.content)!;
    expect(b1).toBeTruthy();
    expect(b2).toBeTruthy();
    expect(b1).not.toBe(b2);
    expect(back.find((m) => m.id === "t1")!.content).toMatch(/a\.txt \| 2 \+-/);
    expect(git(e.dirs.workspace, "show", `${b1}:a.txt`)).toBe("from child one\n");
    expect(git(e.dirs.workspace, "show", `${b2}:a.txt`)).toBe("from child two\n");
    expect(git(e.dirs.workspace, "status", "--porcelain")).toBe(" M a.txt\n");
    // The parent's checkpoints leave the children's worktrees out: its diff shows none of their files.
    const diff = await e.run(["diff"]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).not.toContain(".tern/worktrees");
  });

  it("an agent file with isolation: worktree isolates its child; one that changes nothing leaves no branch", async () => {
    const agents = join(e.dirs.workspace, ".tern", "agents");
    mkdirSync(agents, { recursive: true });
    writeFileSync(
      join(agents, "builder.md"),
      "---\nname: builder\ndescription: builds things\nisolation: worktree\n---\nYou build.\n",
    );
    const task = (id: string, prompt: string) => ({
      id,
      name: "task",
      args: { description: "build", prompt, agent: "builder" },
    });
    const arrivals = scriptBySession(e, {
      "do it": [openaiToolCalls([task("t1", "make b"), task("t2", "look only")]), openaiText("ok")],
      "make b": [openaiToolCalls([write("w1", "b.txt", "bee\n")]), openaiText("made b")],
      "look only": [openaiText("nothing to do")],
    });
    // The project's agent file, in a workspace the person trusts.
    writeUserConfig(e, { trustedWorkspaces: [e.dirs.workspace] });
    const run = await ternRun(e, ["--yes"]);
    expect(run.code).toBe(0);
    const back = toolMessages(arrivals.at(-1)!.request.body);
    const made = back.find((m) => m.id === "t1")!.content;
    expect(made).toMatch(/branch tern\/builder-[0-9a-f]{4}; your files are unchanged/);
    expect(made).toContain("b.txt | 1 +");
    expect(existsSync(join(e.dirs.workspace, "b.txt"))).toBe(false);
    expect(back.find((m) => m.id === "t2")!.content).toContain("it changed no file; the worktree is removed");
    expect(branches().filter((b) => b.startsWith("tern/builder-"))).toHaveLength(1);
  });
});
