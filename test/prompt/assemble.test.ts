import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assembleSystemPrompt, assembleSystemPromptWithWarnings } from "../../src/prompt/assemble.js";
import { basePrompt } from "../../src/prompt/base.js";
import { findSkills } from "../../src/prompt/skills.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const TOOLS = ["read_file", "edit_file", "bash", "write_file"];
const skill = (root: string, dir: string, body: string) => {
  mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, dir, "SKILL.md"), body);
  return join(root, dir, "SKILL.md");
};
const wsSkills = () => join(dirs.workspace, ".tern", "skills");
const homeSkills = () => join(dirs.home, "skills");

describe("base prompt", () => {
  it("is short and carries the editing rules", () => {
    const text = basePrompt("/some/workspace", TOOLS);
    expect(Buffer.byteLength(text)).toBeLessThan(1200);
    // The read-before-edit rule (R-TOOL-1) is said here once, not in each edit tool's description.
    expect(text).toContain("Edit or overwrite a file only after a read_file of it this turn");
    expect(text).toContain("prefer edit_file");
    expect(text).toContain("minimal");
    expect(text).toContain("never guess");
    expect(text).toContain("Workspace: /some/workspace ");
    // The tool definitions name the tools: the prompt does not list them again.
    expect(text).not.toContain("Tools:");
    expect(Buffer.byteLength(text)).toBeLessThan(600);
    expect(basePrompt("/w", ["apply_patch", "write_file"])).toContain(
      "Change files with apply_patch; write_file only to create a file or rewrite one read this turn.",
    );
    expect(basePrompt("/w", ["write_file"])).toContain(
      "Overwrite a file only after a read_file of it this turn.",
    );
    expect(basePrompt("/w", ["bash"])).not.toContain("edit_file");
    expect(basePrompt("/w", ["bash"])).not.toContain("read_file");
  });
});

describe("assembleSystemPrompt (SPEC §8)", () => {
  it("orders base → AGENTS.md → --system → skills index", () => {
    writeFileSync(join(dirs.workspace, "AGENTS.md"), "Run `npm test` before finishing.\r\n");
    const path = skill(
      wsSkills(),
      "release",
      "---\nname: release\ndescription: Cut a release\n---\nSECRET BODY\n",
    );
    const text = assembleSystemPrompt({
      cwd: dirs.workspace,
      home: dirs.home,
      extraSystem: "Answer in French.",
      toolNames: TOOLS,
    });
    const base = text.indexOf("You are tern");
    const agents = text.indexOf(
      `# Project instructions (from AGENTS.md in the workspace)\nFile: ${join(dirs.workspace, "AGENTS.md")}\n\nRun \`npm test\` before finishing.`,
    );
    const extra = text.indexOf("# Additional instructions\n\nAnswer in French.");
    const skills = text.indexOf("# Skills");
    expect(base).toBe(0);
    expect(agents).toBeGreaterThan(base);
    expect(extra).toBeGreaterThan(agents);
    expect(skills).toBeGreaterThan(extra);
    expect(text).toContain(`- release: Cut a release (${path})`);
    expect(text).not.toContain("SECRET BODY");
    expect(text).not.toContain("\r");
  });

  it("omits missing sections", () => {
    const text = assembleSystemPrompt({ cwd: dirs.workspace, home: dirs.home, toolNames: [] });
    expect(text).not.toContain("Project instructions");
    expect(text).not.toContain("Additional instructions");
    expect(text).not.toContain("# Skills");
    expect(text).not.toContain("Tools:");
    expect(
      assembleSystemPrompt({ cwd: dirs.workspace, home: dirs.home, toolNames: [], extraSystem: "  " }),
    ).toBe(text);
  });

  it("is byte-identical across calls with the same inputs, whatever the order of tool names", () => {
    writeFileSync(join(dirs.workspace, "AGENTS.md"), "rules");
    for (const name of ["zeta", "alpha", "mid"])
      skill(homeSkills(), name, `---\ndescription: ${name} skill\n---\n`);
    const a = assembleSystemPrompt({
      cwd: dirs.workspace,
      home: dirs.home,
      toolNames: ["b", "a"],
      extraSystem: "x",
    });
    const b = assembleSystemPrompt({
      cwd: dirs.workspace,
      home: dirs.home,
      toolNames: ["a", "b"],
      extraSystem: "x",
    });
    expect(b).toBe(a);
    expect(a.indexOf("- alpha:")).toBeLessThan(a.indexOf("- mid:"));
    expect(a.indexOf("- mid:")).toBeLessThan(a.indexOf("- zeta:"));
  });
});

describe("skills index", () => {
  it("finds SKILL.md in the workspace and TERN_HOME, parses front matter, workspace wins on a name clash", () => {
    const ws = skill(
      wsSkills(),
      "deploy",
      "---\nname: deploy\ndescription: >\n  Deploy the app\n  to staging\n---\nbody",
    );
    skill(homeSkills(), "deploy-home", "---\nname: deploy\ndescription: home version\n---\n");
    const home = skill(homeSkills(), "lint", "---\nname: lint\ndescription: 'Run: the linter'\n---\n");
    const bare = skill(homeSkills(), "no-front", "# Just a body\n");
    mkdirSync(join(homeSkills(), "empty-dir"), { recursive: true });
    writeFileSync(join(homeSkills(), "stray.md"), "not a skill folder");
    const { skills, warnings } = findSkills({ cwd: dirs.workspace, home: dirs.home });
    expect(skills).toEqual([
      { name: "deploy", description: "Deploy the app to staging", path: ws, scope: "project" },
      { name: "lint", description: "Run: the linter", path: home, scope: "user" },
      { name: "no-front", description: "", path: bare, scope: "user" },
    ]);
    expect(warnings).toEqual([]);
  });

  it("skips a skill with broken YAML front matter and reports it", () => {
    const bad = skill(wsSkills(), "bad", "---\nname: [unclosed\n---\n");
    skill(wsSkills(), "good", "---\nname: good\ndescription: fine\n---\n");
    const { text, warnings } = assembleSystemPromptWithWarnings({
      cwd: dirs.workspace,
      home: dirs.home,
      toolNames: [],
    });
    expect(text).toContain("- good: fine (");
    expect(text).not.toContain("- bad");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`${bad}: front matter is not valid YAML`);
  });
});
