// Instruction files (R-WF-1) as read: the name chosen per folder (AGENTS.md, else CLAUDE.md, else
// GEMINI.md, as compat allows), `@` imports (depth, escapes, code, diamonds, cycles), the cap.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { importTokens } from "../../src/prompt/instruction-files.js";
import { formatInstructions, loadInstructions } from "../../src/prompt/instructions.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
  mkdirSync(join(dirs.workspace, ".git"));
});
afterEach(() => dirs.cleanup());

const BOTH = { claude: true, agents: true };
const load = (compat = BOTH) => loadInstructions({ cwd: dirs.workspace, home: dirs.home, compat });
const write = (rel: string, text: string) => {
  const path = join(dirs.workspace, rel);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
};

describe("instruction files", () => {
  it("takes AGENTS.md, else CLAUDE.md, else GEMINI.md; compat switches the others off", () => {
    const gemini = write("GEMINI.md", "gemini rules");
    expect(load().files.map((f) => f.path)).toEqual([gemini]);
    expect(load({ claude: true, agents: false }).files).toEqual([]);
    const claude = write("CLAUDE.md", "claude rules");
    expect(load().files.map((f) => f.path)).toEqual([claude]);
    expect(load({ claude: false, agents: true }).files.map((f) => f.path)).toEqual([gemini]);
    const agents = write("AGENTS.md", "own rules");
    expect(load({ claude: false, agents: false }).files.map((f) => f.path)).toEqual([agents]);
  });

  it("Codex's AGENTS.override.md wins over AGENTS.md in its folder (R-WF-7), only with compat.agents", () => {
    write("AGENTS.md", "shared rules");
    const override = write("AGENTS.override.md", "my local override");
    const sub = write("pkg/AGENTS.md", "package rules");
    const files = loadInstructions({ cwd: join(dirs.workspace, "pkg"), home: dirs.home, compat: BOTH }).files;
    expect(files.map((f) => f.path)).toEqual([override, sub]);
    expect(load({ claude: true, agents: false }).files.map((f) => f.path)).toEqual([
      join(dirs.workspace, "AGENTS.md"),
    ]);
  });

  it("@~/ imports from TERN_HOME's AGENTS.md read the home folder, as Claude Code's user memory does; a workspace's do not", () => {
    const userHome = join(dirs.root, "person");
    mkdirSync(join(userHome, ".claude"), { recursive: true });
    const personal = join(userHome, ".claude", "my-instructions.md");
    writeFileSync(personal, "personal rules");
    writeFileSync(join(dirs.home, "AGENTS.md"), "@~/.claude/my-instructions.md");
    write("AGENTS.md", "project rules");
    const { files, warnings } = loadInstructions({
      cwd: dirs.workspace,
      home: dirs.home,
      userHome,
      compat: BOTH,
    });
    expect(files.map((f) => f.path)).toEqual([
      join(dirs.home, "AGENTS.md"),
      personal,
      join(dirs.workspace, "AGENTS.md"),
    ]);
    expect(files[1].importedBy).toBe(join(dirs.home, "AGENTS.md"));
    expect(warnings).toEqual([]);
    // A workspace's file importing it is refused with a notice.
    writeFileSync(join(dirs.home, "AGENTS.md"), "nothing imported");
    write("AGENTS.md", "@~/.claude/my-instructions.md");
    const alone = loadInstructions({ cwd: dirs.workspace, home: dirs.home, userHome, compat: BOTH });
    expect(alone.files.map((f) => f.path)).not.toContain(personal);
    expect(alone.warnings).toEqual([
      `${join(dirs.workspace, "AGENTS.md")}: import @~/.claude/my-instructions.md is outside the repository, workspace and TERN_HOME; not loaded`,
    ]);
  });

  it("reads each import once (a diamond is no cycle) and stops past five levels with a notice", () => {
    write("AGENTS.md", "@a.md @b.md");
    write("a.md", "@shared.md");
    write("b.md", "@shared.md");
    write("shared.md", "@l2.md");
    write("l2.md", "@l3.md");
    write("l3.md", "@l4.md");
    write("l4.md", "@l5.md");
    write("l5.md", "@l6.md");
    write("l6.md", "too deep");
    const { files, warnings } = load();
    expect(files.map((f) => f.path.slice(dirs.workspace.length + 1))).toEqual([
      "AGENTS.md",
      "a.md",
      "shared.md",
      "l2.md",
      "l3.md",
      "l4.md",
      "b.md",
    ]);
    expect(warnings).toEqual([
      `${join(dirs.workspace, "l4.md")}: import @l5.md is more than 5 levels deep; not loaded`,
    ]);
  });

  it("refuses an import that leaves the repository, workspace and TERN_HOME; a trusted workspace may import TERN_HOME's files", () => {
    writeFileSync(join(dirs.root, "outside.md"), "OUTSIDE");
    writeFileSync(join(dirs.home, "mine.md"), "MINE");
    write("AGENTS.md", `@../outside.md and @${join(dirs.home, "mine.md")} and @nobody`);
    const trusted = loadInstructions({
      cwd: dirs.workspace,
      home: dirs.home,
      compat: BOTH,
      trustedWorkspaces: [dirs.workspace],
    });
    expect(trusted.files.map((f) => f.text)).toEqual([expect.stringContaining("@../outside.md"), "MINE"]);
    expect(trusted.warnings).toEqual([
      `${join(dirs.workspace, "AGENTS.md")}: import @../outside.md is outside the repository, workspace and TERN_HOME; not loaded`,
    ]);
  });

  it("an untrusted workspace's file never imports TERN_HOME (keys) or .git internals; TERN_HOME's AGENTS.md may (§10)", () => {
    writeFileSync(join(dirs.home, "mine.md"), "MINE");
    writeFileSync(join(dirs.home, "AGENTS.md"), "@mine.md");
    mkdirSync(join(dirs.workspace, ".git"), { recursive: true });
    writeFileSync(join(dirs.workspace, ".git", "config"), "GITCONFIG");
    write("AGENTS.md", `@${join(dirs.home, "mine.md")} and @.git/config`);
    const { files, warnings } = load();
    expect(files.map((f) => f.text)).toEqual(["@mine.md", "MINE", expect.stringContaining("@.git/config")]);
    const agents = join(dirs.workspace, "AGENTS.md");
    expect(warnings).toEqual([
      `${agents}: import @${join(dirs.home, "mine.md")} not loaded: it is in TERN_HOME, tern's own settings and keys`,
      `${agents}: import @.git/config not loaded: it is inside a .git folder, a repository's internals`,
    ]);
  });

  it("finds no import in code spans or fenced blocks, and trims sentence punctuation", () => {
    expect(importTokens("see @a.md, `@b.md` and\n```\n@c.md\n```\n@d.md.")).toEqual(["a.md", "d.md"]);
    expect(importTokens("mail me at x@y.com or @alice")).toEqual(["alice"]);
  });

  it("keeps the whole within 64 KB and names what it cut and left out", () => {
    const big = write("AGENTS.md", "a".repeat(80 * 1024));
    const { files } = load();
    const later = { path: "/later.md", label: "Later", text: "later" };
    const { text, warnings } = formatInstructions([...files, later]);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(64 * 1024 + 200);
    expect(warnings).toEqual([`instruction files are over 64 KB: ${big} was cut; not loaded: /later.md`]);
  });
});

describe("Claude Code's user memory", () => {
  it("reads ~/.claude/CLAUDE.md with compat.claude, after TERN_HOME's AGENTS.md, with its @~ imports", () => {
    const user = join(dirs.root, "user");
    mkdirSync(join(user, ".claude"), { recursive: true });
    writeFileSync(join(user, ".claude", "CLAUDE.md"), "always use tabs\n@~/shared-notes.md\n");
    writeFileSync(join(user, "shared-notes.md"), "the shared notes\n");
    writeFileSync(join(dirs.home, "AGENTS.md"), "tern user rules\n");
    write("AGENTS.md", "project rules");
    const on = loadInstructions({ cwd: dirs.workspace, home: dirs.home, compat: BOTH, userHome: user });
    expect(on.files.map((f) => f.label)).toEqual([
      "User instructions (from AGENTS.md in TERN_HOME)",
      "User instructions (from ~/.claude/CLAUDE.md)",
      `Imported by ${join(user, ".claude", "CLAUDE.md")}`,
      "Project instructions (from AGENTS.md in the workspace)",
    ]);
    expect(on.files[2].text).toContain("the shared notes");
    const off = loadInstructions({
      cwd: dirs.workspace,
      home: dirs.home,
      compat: { claude: false, agents: true },
      userHome: user,
    });
    expect(off.files.map((f) => f.label)).not.toContain("User instructions (from ~/.claude/CLAUDE.md)");
  });
});
