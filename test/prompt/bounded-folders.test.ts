// Skills and custom-command folders are read at session start: a folder of thousands of entries
// (generated, or a mistake) is read up to a bound with a one-line notice naming it.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findCustomCommands } from "../../src/prompt/custom-commands.js";
import { findSkills } from "../../src/prompt/skills.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const compat = { claude: false, agents: false };
// Small bounds keep the trees small (the defaults, 500 and 1000, work the same way).
const MAX_SKILL_ENTRIES = 20;
const MAX_COMMAND_ENTRIES = 30;
const pad = (i: number) => String(i).padStart(4, "0");

describe("bounded skill and command folders", () => {
  it("reads the first maxEntries skill folders by name and says the rest were left", () => {
    const root = join(dirs.workspace, ".tern", "skills");
    for (let i = 0; i < MAX_SKILL_ENTRIES + 2; i++) {
      mkdirSync(join(root, `s${pad(i)}`), { recursive: true });
      writeFileSync(join(root, `s${pad(i)}`, "SKILL.md"), `---\ndescription: skill ${i}\n---\nbody\n`);
    }
    const { skills, warnings } = findSkills({
      cwd: dirs.workspace,
      home: dirs.home,
      compat,
      maxEntries: MAX_SKILL_ENTRIES,
    });
    expect(skills).toHaveLength(MAX_SKILL_ENTRIES);
    expect(skills.at(-1)?.name).toBe(`s${pad(MAX_SKILL_ENTRIES - 1)}`);
    expect(warnings).toEqual([
      `${root}: ${MAX_SKILL_ENTRIES + 2} entries, more than ${MAX_SKILL_ENTRIES}; only the first ${MAX_SKILL_ENTRIES} (by name) are read as skills`,
    ]);
  });

  it("stops a commands folder's walk at maxEntries entries, subfolders counted, with a notice", () => {
    const root = join(dirs.workspace, ".tern", "commands");
    mkdirSync(join(root, "a"), { recursive: true });
    writeFileSync(join(root, "a", "first.md"), "first\n");
    for (let i = 0; i < MAX_COMMAND_ENTRIES; i++)
      writeFileSync(join(root, `c${pad(i)}.md`), `command ${i}\n`);
    const { commands, warnings } = findCustomCommands({
      cwd: dirs.workspace,
      home: dirs.home,
      compat,
      maxEntries: MAX_COMMAND_ENTRIES,
    });
    // `a/` and `a/first.md` are two of the entries looked at, then MAX - 2 of the others.
    expect(commands).toHaveLength(MAX_COMMAND_ENTRIES - 1);
    expect(commands.map((c) => c.name)).toContain("/a:first");
    expect(warnings).toEqual([
      `${root}: more than ${MAX_COMMAND_ENTRIES} entries; the commands past them (by name) are not read`,
    ]);
  });

  it("a folder within the bounds gives no notice", () => {
    const root = join(dirs.workspace, ".tern", "commands");
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, "one.md"), "one\n");
    expect(findCustomCommands({ cwd: dirs.workspace, home: dirs.home, compat }).warnings).toEqual([]);
  });
});
