// R-EDIT-5: the files tern lists are the files git lists. Generated trees (seeded, the same every
// run) with .gitignore files at several depths, the repository's info/exclude and the user's
// core.excludesFile, names with multi-byte characters, and patterns with `?`, POSIX classes,
// ranges, negations, anchors and folder rules; each listed by ripgrep and by the built-in walk
// and compared with `git ls-files --others --exclude-standard` (nothing is tracked, so that is
// every file git does not ignore).
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRelative } from "../../src/tools/builtin/file-walk.js";
import { ripgrepPath } from "../../src/tools/builtin/ripgrep.js";
import { seededRandom } from "../support/random.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

const TREES = 40;

const NAMES = ["a", "b", "ab", "é", "éa", "😀", "x1", "1", "Ab", "a-b", "a.b"];
const EXTS = [".txt", ".md", ".log", ""];
const FOLDERS = ["src", "lib", "é", "build", "a b", "x1"];
const PATTERNS = [
  "?.txt",
  "??.txt",
  "???.md",
  "*.log",
  "!b.log",
  "[[:alpha:]].txt",
  "[[:digit:]]*",
  "[![:alpha:]]*.md",
  "[a-b]?.md",
  "[!a]*.txt",
  "build/",
  "/src",
  "lib/*.md",
  "**/x1",
  "é*",
  "*é",
  "a?b",
  "\\!x",
  "*.[mt][dx]*",
  "!src/a.txt",
  "x1/",
  "a b/",
];

let dirs: TempDirs;
const realPath = process.env.PATH;
const realHome = process.env.HOME;
const realXdg = process.env.XDG_CONFIG_HOME;
const realRg = ripgrepPath();
let rgPath = "";
let rgLog = "";

beforeAll(() => {
  dirs = makeTempDirs();
  const bin = join(dirs.root, "bin");
  mkdirSync(bin);
  rgLog = join(dirs.root, "rg.log");
  writeFileSync(join(bin, "rg"), `#!/bin/sh\necho "$*" >> '${rgLog}'\nexec '${realRg}' "$@"\n`);
  chmodSync(join(bin, "rg"), 0o755);
  rgPath = `${bin}:/usr/bin:/bin`;
  process.env.HOME = dirs.home;
  delete process.env.XDG_CONFIG_HOME;
});
afterAll(() => {
  process.env.PATH = realPath;
  process.env.HOME = realHome;
  if (realXdg !== undefined) process.env.XDG_CONFIG_HOME = realXdg;
  dirs.cleanup();
});

function put(root: string, rel: string, content: string) {
  mkdirSync(join(root, rel, ".."), { recursive: true });
  writeFileSync(join(root, rel), content);
}

/** A seeded tree: files, ignore files and excludes. */
function generate(seed: number, root: string): void {
  const rand = seededRandom(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const rules = () =>
    `${Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(PATTERNS)).join("\n")}\n`;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  execFileSync("git", ["init", "-q"], { cwd: root, env: gitEnv() });
  for (let i = 0; i < 25; i++) {
    const depth = Math.floor(rand() * 3);
    const folders = Array.from({ length: depth }, () => pick(FOLDERS));
    try {
      put(root, [...folders, pick(NAMES) + pick(EXTS)].join("/"), `${i}\n`);
    } catch {
      // A file where a folder of the same name is (or the reverse): left out.
    }
  }
  put(root, ".gitignore", rules());
  for (const folder of FOLDERS) {
    if (rand() < 0.3) {
      try {
        put(root, `${folder}/.gitignore`, rules());
      } catch {
        // a file of that name is there
      }
    }
  }
  if (rand() < 0.6) put(root, ".git/info/exclude", `# comment\n${rules()}`);
  const home = process.env.HOME!;
  rmSync(join(home, ".config"), { recursive: true, force: true });
  rmSync(join(home, ".gitconfig"), { force: true });
  const user = rand();
  if (user < 0.3) put(home, ".config/git/ignore", rules());
  else if (user < 0.6) {
    put(home, "my-excludes", rules());
    put(home, ".gitconfig", "[core]\n\texcludesFile = ~/my-excludes\n");
  } else if (user < 0.8) {
    put(home, "repo-excludes", rules());
    writeFileSync(
      join(root, ".git/config"),
      `${readFileSync(join(root, ".git/config"), "utf8")}[core]\n\texcludesfile = ${join(home, "repo-excludes")}\n`,
    );
  }
}

const gitEnv = () => ({ ...process.env, HOME: process.env.HOME, PATH: "/usr/bin:/bin" });

function gitListing(root: string): string[] {
  const out = execFileSync(
    "git",
    ["-c", "core.quotepath=off", "ls-files", "-z", "--others", "--exclude-standard"],
    {
      cwd: root,
      env: gitEnv(),
      encoding: "utf8",
    },
  );
  return out.split("\0").filter(Boolean).sort();
}

async function ternListing(root: string, path: string): Promise<string[]> {
  process.env.PATH = path;
  try {
    return (await listRelative(root, "**", root)).rels;
  } finally {
    process.env.PATH = realPath;
  }
}

describe.skipIf(!realRg)("file lists as git sees them (R-EDIT-5)", () => {
  it(`ripgrep and the built-in walk list what git lists, on ${TREES} generated trees`, async () => {
    const root = join(dirs.root, "tree");
    const disagreements: string[] = [];
    for (let seed = 1; seed <= TREES; seed++) {
      generate(seed, root);
      const git = gitListing(root);
      writeFileSync(rgLog, "");
      const viaRg = await ternListing(root, rgPath);
      const rgRan = readFileSync(rgLog, "utf8") !== "";
      const builtin = await ternListing(root, "/nonexistent-bin");
      const show = (xs: string[]) => JSON.stringify(xs);
      if (show(builtin) !== show(git)) disagreements.push(`seed ${seed} built-in: ${diff(git, builtin)}`);
      if (show(viaRg) !== show(git))
        disagreements.push(`seed ${seed} ${rgRan ? "ripgrep" : "fallback"}: ${diff(git, viaRg)}`);
    }
    expect(disagreements).toEqual([]);
  });

  it("`?` is one byte and POSIX classes are ASCII, as in git's wildmatch", async () => {
    const root = join(dirs.root, "byte");
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root);
    execFileSync("git", ["init", "-q"], { cwd: root, env: gitEnv() });
    put(root, ".gitignore", "?.txt\n??.md\n[[:alpha:]]x.log\n");
    for (const f of ["a.txt", "é.txt", "é.md", "ab.md", "ax.log", "éx.log", "1x.log"]) put(root, f, "x\n");
    const expected = [".gitignore", "1x.log", "é.txt", "éx.log"];
    expect(gitListing(root)).toEqual(expected);
    expect(await ternListing(root, rgPath)).toEqual(expected);
    expect(await ternListing(root, "/nonexistent-bin")).toEqual(expected);
  });
});

function diff(want: string[], got: string[]): string {
  const missing = want.filter((x) => !got.includes(x));
  const extra = got.filter((x) => !want.includes(x));
  return `missing ${JSON.stringify(missing)} extra ${JSON.stringify(extra)}`;
}
