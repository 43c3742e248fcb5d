// R-WF-2 / R-CLI-1 / R-WF-4 through `tern run`: a Claude Code repository's commands expand exactly
// ($ARGUMENTS, $1…$9, namespaces, front matter), skills run by `/skill:<name>`, built-ins win a
// clash, broken files are notices, and `@path` attaches text, ranges and folders.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { jsonEvents, runCli } from "../support/cli.js";
import { ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";
import { claudeRepo, lastUserText, notices } from "./workflow-support.js";

const e = useE2E();
const ws = (...p: string[]) => join(e.dirs.workspace, ...p);
const userText = (i = 0) => e.provider.requests[i].body.messages.find((m: any) => m.role === "user");
const firstText = (i = 0) => {
  const c = userText(i).content;
  return typeof c === "string" ? c : c[0].text;
};

describe("custom commands in tern run (R-WF-2, R-CLI-1)", () => {
  it("expands $ARGUMENTS, and a namespaced command's $1 $2 (quotes group words)", async () => {
    const env = claudeRepo(e);
    e.provider.enqueue(openaiText("one"), openaiText("two"));
    expect((await ternRun(e, [], "/fix-issue 123 in the parser", { env })).code).toBe(0);
    expect(firstText(0)).toBe("Find and fix issue #123 in the parser. Follow the coding standards.");
    expect((await ternRun(e, [], '/git:pr feature/x "Add the parser"', { env })).code).toBe(0);
    expect(firstText(1)).toBe('Open a pull request from branch feature/x titled "Add the parser".');
  });

  it("runs /review: its @$1 attaches the file, its allowed-tools allow the calls for that turn", async () => {
    const env = claudeRepo(e);
    // A workspace's allowed-tools grant only where it is trusted (§10; safety-trust-commands.test.ts).
    writeUserConfig(e, { trustedWorkspaces: [e.dirs.workspace] });
    mkdirSync(ws("src"));
    writeFileSync(ws("src", "a.ts"), "export const a = 1;\n");
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "git diff --stat" } }]),
      openaiText("no bugs"),
      openaiToolCalls([{ id: "c2", name: "bash", args: { command: "git diff --stat" } }]),
      openaiText("denied"),
    );
    const run = await ternRun(e, [], "/review src/a.ts", { env });
    expect(run.code).toBe(0);
    const user = userText(0).content;
    const text = typeof user === "string" ? user : user.map((p: any) => p.text).join("\n");
    expect(text).toContain("Review @src/a.ts for bugs and list them by severity.");
    expect(text).toContain("Attached file src/a.ts:\n```\nexport const a = 1;\n```");
    const result = toolMessages(e.provider.requests[1].body)[0].content;
    expect(result).not.toContain("denied");
    // The next turn, a plain prompt, has no such rule: tern run without --yes denies the call.
    expect((await ternRun(e, ["--continue"], "again", { env })).code).toBe(0);
    expect(toolMessages(e.provider.requests[3].body).at(-1)!.content).toContain("denied");
  });

  it("/skill:<name> puts the skill's body into the prompt, with its arguments", async () => {
    const env = claudeRepo(e);
    e.provider.enqueue(openaiText("ok"));
    expect((await ternRun(e, [], "/skill:changelog since v1.2", { env })).code).toBe(0);
    const text = firstText(0);
    expect(text).toContain(`# Skill: changelog (from ${ws(".claude", "skills", "changelog", "SKILL.md")})`);
    expect(text).toContain("SKILL-BODY-MARKER");
    expect(text).toContain("ARGUMENTS: since v1.2");
    expect(text).not.toContain("description: Write a changelog");
  });

  it("project commands win over user ones, tern's folders over Claude's; ~/.claude/commands is read", async () => {
    const env = claudeRepo(e);
    mkdirSync(ws(".tern", "commands"), { recursive: true });
    writeFileSync(ws(".tern", "commands", "fix-issue.md"), "TERN-WINS $ARGUMENTS\n");
    mkdirSync(join(env.HOME, ".claude", "commands"), { recursive: true });
    writeFileSync(join(env.HOME, ".claude", "commands", "fix-issue.md"), "USER-LOSES\n");
    writeFileSync(join(env.HOME, ".claude", "commands", "standup.md"), "Write my standup for $1.\n");
    e.provider.enqueue(openaiText("a"), openaiText("b"));
    expect((await ternRun(e, [], "/fix-issue 7", { env })).code).toBe(0);
    expect(firstText(0)).toBe("TERN-WINS 7");
    expect((await ternRun(e, [], "/standup monday", { env })).code).toBe(0);
    expect(firstText(1)).toBe("Write my standup for monday.");
  });

  it("a command's model runs its turn; the session keeps its own model (unless --model names one)", async () => {
    mkdirSync(ws(".tern", "commands"), { recursive: true });
    writeFileSync(
      ws(".tern", "commands", "quick.md"),
      "---\nmodel: openai/mock-small\n---\nQuick: $ARGUMENTS\n",
    );
    writeFileSync(ws(".tern", "commands", "alias.md"), "---\nmodel: haiku\n---\nAliased\n");
    writeUserConfig(e, { model: "openai/mock-1" });
    e.provider.enqueue(openaiText("a"), openaiText("b"), openaiText("c"));
    const run = (prompt: string, more: string[] = []) =>
      runCli(["run", "--json", "--base-url", e.provider.baseUrl, ...more, prompt], {
        home: e.dirs.home,
        cwd: e.dirs.workspace,
        env: { OPENAI_API_KEY: "sk-test-key" },
      });
    expect((await run("/quick look")).code).toBe(0);
    expect((await run("plain", ["--continue"])).code).toBe(0);
    const aliased = await run("/alias");
    expect(e.provider.requests.map((r) => r.body.model)).toEqual(["mock-small", "mock-1", "mock-1"]);
    expect(notices(jsonEvents(aliased.stdout))).toContain(
      'model "haiku" of this command ignored: tern names models <provider>/<model>',
    );
  });

  it("a built-in wins a clash, a broken or unreadable file is one notice; the session still runs", async () => {
    const env = claudeRepo(e);
    writeFileSync(ws(".claude", "commands", "compact.md"), "my compact\n");
    writeFileSync(ws(".claude", "commands", "broken.md"), "---\ndescription: [unclosed\n---\nbody\n");
    writeFileSync(ws(".claude", "commands", "huge.md"), "x".repeat(300 * 1024));
    writeFileSync(ws(".claude", "commands", "hello.md"), "say hello\n");
    // The command files are read for a prompt that is a slash command (a plain prompt reads none).
    e.provider.enqueue(openaiText("ok"));
    const run = await ternRun(e, [], "/hello", { env });
    expect(run.code).toBe(0);
    const said = notices(run.events);
    expect(said).toContain(
      `${ws(".claude", "commands", "compact.md")}: /compact is a built-in command; the custom one is not used`,
    );
    expect(
      said.some((n) =>
        n.startsWith(`${ws(".claude", "commands", "broken.md")}: front matter is not valid YAML`),
      ),
    ).toBe(true);
    expect(said.some((n) => n.startsWith(`${ws(".claude", "commands", "huge.md")}: 300 KB is over`))).toBe(
      true,
    );
    e.provider.enqueue(openaiText("ok"));
    const plain = await ternRun(e, [], "hello", { env });
    expect(plain.code).toBe(0);
    expect(notices(plain.events).filter((n) => n.includes(".claude/commands"))).toEqual([]);
    const refused = await ternRun(e, [], "/compact now", { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("/compact is a slash command");
  });
});

describe("@path attaches text (R-WF-4)", () => {
  it("attaches a whole file, a line range and a folder listing; an unknown path stays text", async () => {
    mkdirSync(ws("src"));
    writeFileSync(ws("src", "a.ts"), "line1\nline2\nline3\nline4\n");
    writeFileSync(ws("notes.txt"), "NOTE-MARKER\n");
    e.provider.enqueue(openaiText("ok"));
    const run = await ternRun(e, [], "see @notes.txt, @src/a.ts:2-3 and @src and @missing.txt and @alice");
    expect(run.code).toBe(0);
    const text = lastUserText(e.provider.requests[0].body);
    expect(text).toContain("see @notes.txt, @src/a.ts:2-3 and @src and @missing.txt and @alice");
    expect(text).toContain("Attached file notes.txt:\n```\nNOTE-MARKER\n```");
    expect(text).toContain("Attached file src/a.ts (lines 2-3 of 4):\n```\nline2\nline3\n```");
    expect(text).toContain("Attached folder src (1 entries):\na.ts");
    expect(text).not.toContain("Attached file missing.txt");
  });

  it("a whole-file attach counts as a read: edit_file works in that turn without read_file", async () => {
    writeFileSync(ws("a.txt"), "old\n");
    e.provider.enqueue(
      openaiToolCalls([
        { id: "c1", name: "edit_file", args: { path: "a.txt", old_string: "old", new_string: "new" } },
      ]),
      openaiText("edited"),
    );
    const run = await ternRun(e, ["--yes"], "change @a.txt");
    expect(run.code).toBe(0);
    expect(toolMessages(e.provider.requests[1].body)[0].content).not.toContain("before editing");
    expect(readFileSync(ws("a.txt"), "utf8")).toBe("new\n");
  });

  it("a file over toolOutputLimit is cut with the read hint; a FIFO or binary file stays text", async () => {
    writeFileSync(ws("big.txt"), `${"a".repeat(40_000)}END`);
    execFileSync("mkfifo", [ws("pipe")]);
    writeFileSync(ws("bin.dat"), Buffer.from([1, 0, 2]));
    e.provider.enqueue(openaiText("ok"));
    expect((await ternRun(e, [], "see @big.txt @pipe @bin.dat")).code).toBe(0);
    const text = lastUserText(e.provider.requests[0].body);
    expect(text).not.toContain("Attached file pipe");
    expect(text).not.toContain("Attached file bin.dat");
    expect(text).toContain("characters elided; read the rest with read_file offset/limit (path big.txt)");
    expect(text.length).toBeLessThan(31_000);
  });
});
