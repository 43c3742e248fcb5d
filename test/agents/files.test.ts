// Agent files (R-AGENT-2): the four folders and their precedence, Claude Code's front matter field
// for field (`tools` as a comma-separated string or a YAML list, `model: inherit`), the built-ins,
// and the one-line problems a bad file, an unknown tool or an unconfigured model give.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentProblems, droppedTools } from "../../src/agents/check.js";
import { findAgents } from "../../src/agents/files.js";
import { resolveToolEntries } from "../../src/agents/tool-names.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
let userHome: string;
beforeEach(() => {
  dirs = makeTempDirs();
  userHome = join(dirs.root, "person");
});
afterEach(() => dirs.cleanup());

function agentFile(dir: string, file: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, text);
  return path;
}

const roots = (claude = true) => ({ cwd: dirs.workspace, home: dirs.home, userHome, compat: { claude } });

describe("agent files", () => {
  it("reads the four folders, project over user and tern's over Claude's, built-ins last", () => {
    agentFile(
      join(dirs.workspace, ".tern", "agents"),
      "a.md",
      "---\nname: reviewer\ndescription: tern project\n---\nP1",
    );
    agentFile(
      join(dirs.workspace, ".claude", "agents"),
      "b.md",
      "---\nname: reviewer\ndescription: claude project\n---\nP2",
    );
    agentFile(join(dirs.home, "agents"), "c.md", "---\nname: writer\ndescription: tern user\n---\nP3");
    agentFile(
      join(userHome, ".claude", "agents"),
      "d.md",
      "---\nname: tester\ndescription: claude user\n---\nP4",
    );
    const { agents, warnings } = findAgents(roots());
    expect(warnings).toEqual([]);
    expect(agents.map((a) => [a.name, a.source, a.description])).toEqual([
      ["reviewer", "project", "tern project"],
      ["writer", "user", "tern user"],
      ["tester", "claude-user", "claude user"],
      ["general", "builtin", expect.any(String)],
      ["explore", "builtin", expect.stringMatching(/^Read-only/)],
    ]);
    expect(agents[0].prompt).toBe("P1");
    // compat.claude off: Claude Code's folders are not read.
    expect(findAgents(roots(false)).agents.map((a) => a.name)).toEqual([
      "reviewer",
      "writer",
      "general",
      "explore",
    ]);
  });

  it("takes tools as a comma-separated string or a YAML list, and model inherit as the parent's", () => {
    const dir = join(dirs.workspace, ".claude", "agents");
    agentFile(
      dir,
      "one.md",
      "---\nname: one\ndescription: d\ntools: Read, Grep, Bash(git *)\nmodel: inherit\n---\nbody",
    );
    agentFile(
      dir,
      "two.md",
      "---\nname: two\ndescription: d\ntools:\n  - read_file\n  - Glob\nmodel: openai/gpt-5\n---\n",
    );
    agentFile(dir, "three-four.md", "no front matter: the stem is the name");
    const { agents } = findAgents(roots());
    const [one, stem, two] = agents;
    expect(one).toMatchObject({ name: "one", tools: ["Read", "Grep", "Bash(git *)"] });
    expect(one.model).toBeUndefined();
    expect(two).toMatchObject({ name: "two", tools: ["read_file", "Glob"], model: "openai/gpt-5" });
    expect(stem).toMatchObject({ name: "three-four", prompt: "no front matter: the stem is the name" });
    expect(stem.problems).toEqual([
      `${join(dir, "three-four.md")}: description: missing (the parent model picks agents by it)`,
    ]);
    expect(resolveToolEntries(one.tools!, ["bash", "read_file", "grep", "glob"]).tools).toEqual([
      "read_file",
      "grep",
      "bash",
    ]);
  });

  it("names the file and key of a model that is not configured; a tool tern lacks is dropped with a note (R-WF-7)", () => {
    const path = agentFile(
      join(dirs.workspace, ".tern", "agents"),
      "bad.md",
      "---\nname: bad\ndescription: d\ntools: Read, WebSearch\nmodel: nowhere/model-x\n---\n",
    );
    const bad = findAgents(roots()).agents[0];
    expect(
      agentProblems(bad, { toolNames: ["read_file", "bash"], providers: ["openai", "anthropic"] }),
    ).toEqual([
      `${path}: model: 'nowhere/model-x' is not configured (provider 'nowhere' is not in providers)`,
    ]);
    expect(droppedTools(bad, { toolNames: ["read_file", "bash"] })).toEqual([
      `${path}: tools: 'WebSearch' dropped: tern has no such tool; the agent runs with the rest`,
    ]);
  });

  it("a file that is not an agent is one line naming it, and the others still load", () => {
    const dir = join(dirs.workspace, ".tern", "agents");
    const broken = agentFile(dir, "broken.md", "---\nname: [unclosed\n---\n");
    const badName = agentFile(dir, "name.md", "---\nname: Not A Name\ndescription: d\n---\n");
    agentFile(dir, "ok.md", "---\nname: ok\ndescription: fine\n---\n");
    const { agents, warnings } = findAgents(roots());
    expect(agents.map((a) => a.name)).toEqual(["ok", "general", "explore"]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(new RegExp(`^${broken}: front matter is not valid YAML .*; agent skipped$`));
    expect(warnings[1]).toBe(
      `${badName}: name: 'Not A Name' is not an agent name (lower-case letters, digits, '-', '_'); agent skipped`,
    );
  });
});
