// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell command lines, `${…}` included on purpose.
// Differential check of the rule matcher against real bash (R-TOOL-2): generated command lines
// mixing quotes, comments, escapes, substitutions, here-documents and separators. Whatever the
// matcher lets an allow rule cover must not run a command the rule does not name when bash runs
// it; whatever a deny rule lets through must not run the denied command. Seeded, so a failure
// names a line that reproduces.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ApprovalPolicy } from "../../src/tools/policy/approval.js";
import { readLiteralLine } from "../../src/tools/policy/literal-line.js";
import { bashAllowMatches, bashDenyMatches } from "../../src/tools/policy/rules.js";
import { useStandIns } from "./stand-ins.js";
import { seededRandom } from "../support/random.js";

const box = useStandIns();

let runs = 0;
/** Runs a line in a fresh folder inside the workspace; returns what appeared there and beside it. */
function runBash(command: string): { inside: string[]; beside: string[] } {
  const root = join(box.dirs.workspace, `r${runs++}`);
  const ws = join(root, "ws");
  mkdirSync(ws, { recursive: true });
  try {
    execFileSync("bash", ["-c", command], {
      cwd: ws,
      stdio: "ignore",
      timeout: 10_000,
      env: { PATH: `${box.bin}:/usr/bin:/bin`, HOME: root },
    });
  } catch {
    // A failing line is as good as any: what matters is what it left behind.
  }
  return { inside: readdirSync(ws), beside: readdirSync(root).filter((f) => f !== "ws") };
}

const PIECES = [
  "echo a",
  "echo",
  " ",
  "#",
  ";",
  "'",
  '"',
  "\\",
  "$(",
  ")",
  "`",
  "<<",
  "EOF",
  "\n",
  "touch P",
  "&",
  "|",
  "{",
  "}",
  "(",
  "((",
  "$'",
  "${",
  "x",
  "\\\n",
  "<<-",
  "\t",
  "$((",
  "]]",
  "[[",
  "<<<",
  ">",
  "a#",
  "$",
  "case",
  "in",
  "esac",
  ";;",
  "!",
  "\r",
  '$"',
  "$[",
  "for",
  "do",
  "done",
  "${IFS}",
];

describe("allow rules against real bash", () => {
  it("a line bash(echo *) covers never runs touch", () => {
    const next = seededRandom(20261130);
    let covered = 0;
    for (let i = 0; i < 1500; i++) {
      let line = "echo a ";
      const n = 2 + Math.floor(next() * 8);
      for (let j = 0; j < n; j++) line += PIECES[Math.floor(next() * PIECES.length)];
      line += `${PIECES[Math.floor(next() * PIECES.length)]}touch P`;
      if (!bashAllowMatches("echo *", line)) continue;
      covered++;
      const { inside, beside } = runBash(line);
      expect(inside, JSON.stringify(line)).not.toContain("P");
      expect(beside, JSON.stringify(line)).toEqual([]);
    }
    // The generator must still produce lines the rule covers, or the check proves nothing (the
    // literal gate refuses most of its pieces: quotes and `#` are what it still covers).
    expect(covered).toBeGreaterThan(30);
  });
});

/** Pieces a literal line may hold, and pieces of bash it must refuse; the generator mixes both. */
const LITERAL = [
  "a",
  "-v",
  "--o=v",
  "'b c'",
  '"d;e"',
  "''",
  "x#y",
  "'q'#r",
  "{}",
  "%",
  "^",
  ",",
  "é'é'",
  "' '",
  "'s\nt'",
  "HEAD~1",
  "stash@{0}",
  "a@{u}b",
  '"u\n#v"',
  "'$(touch P)'",
  "'\\'",
];
const JOINS = [
  " ",
  "\t",
  " ; lg ",
  ";lg ",
  " && lg ",
  " &&\n lg ",
  " | lg ",
  "\nlg ",
  " # c\nlg ",
  " || lg ",
  ";#c\nlg ",
];
const REDIRECTS = [" > o1", " >> o2", " 2>&1", " >&2", " 2>/dev/null", " < /dev/null", " >'o 3'", " 1>o4"];
const HOSTILE = [
  "\\",
  "\\\n",
  "$",
  "$x",
  "${PWD:0:'$(touch P)'}",
  "$(touch P)",
  "`touch P`",
  "'",
  '"',
  '"$x"',
  "*",
  "?",
  "[a]",
  "{a,b}",
  "{1..2}",
  "x{a,b}",
  "x{1..2}",
  "x{a}",
  "~",
  "~/o",
  "a=~",
  ":~",
  "&",
  "(",
  ")",
  "!",
  "<<E\nE",
  "<<<x",
  "<>o",
  ">|o",
  "&>o",
  ">&o",
  "{fd}>o",
  "<(touch P)",
  ">(touch P)",
  " > ../o",
  " > .git/o",
  " > /proc/self/cwd/o",
  "x=1 ",
  " ; eval touch P",
  " ; exec touch P",
  " ; touch P",
  "\r",
  ";;",
];

describe("the literal gate against real bash", () => {
  // A stand-in program `lg` records each run's argv, one file per run (pipelines run at once).
  // A bare `bash` rule covers any program, still only in plainly literal lines: what runs is then
  // each command as tern read it (`lg`, `touch P`, a literal name that is no program), nothing else.
  it.each([
    ["bash(lg *)", ["bash(lg *)", "bash(lg)"]],
    ["bash", ["bash"]],
  ])(
    "a line %s covers runs only its literal commands, with the words tern read, and writes only its targets",
    (name, allow) => {
      const logs = join(box.dirs.root, `lg-logs-${name}`);
      mkdirSync(logs);
      writeFileSync(
        join(box.bin, "lg"),
        '#!/bin/bash\nprintf \'%s\\0\' "$#" "$@" > "$(mktemp "$LG_LOGS/XXXXXXXX")"\n',
      );
      chmodSync(join(box.bin, "lg"), 0o755);
      const next = seededRandom(20261201);
      const pick = <T>(a: T[]) => a[Math.floor(next() * a.length)];
      let covered = 0;
      let refused = 0;
      for (let i = 0; i < 300; i++) {
        let line = "lg";
        const n = 1 + Math.floor(next() * 6);
        for (let j = 0; j < n; j++) {
          const r = next();
          if (r < 0.45) line += ` ${pick(LITERAL)}`;
          else if (r < 0.6) line += pick(JOINS) + pick(LITERAL);
          else if (r < 0.75) line += pick(REDIRECTS);
          else line += pick(HOSTILE);
        }
        const root = join(box.dirs.workspace, `lit-${name}-${i}`);
        const ws = join(root, "ws");
        mkdirSync(join(ws, ".git"), { recursive: true });
        const policy = new ApprovalPolicy({
          mode: "ask",
          allow,
          deny: [],
          cwd: ws,
        });
        if (policy.decide({ name: "bash", kind: "shell", args: { command: line }, paths: [] }) !== "allow") {
          refused++;
          continue;
        }
        covered++;
        const read = readLiteralLine(line);
        if ("refused" in read) throw new Error(`allowed but refused: ${JSON.stringify(line)}`);
        const runDir = join(logs, `${i}`);
        mkdirSync(runDir);
        try {
          execFileSync("bash", ["-c", line], {
            cwd: ws,
            stdio: "ignore",
            timeout: 10_000,
            env: { PATH: `${box.bin}:/usr/bin:/bin`, HOME: root, LG_LOGS: runDir },
          });
        } catch {
          // A failing line is as good as any: what matters is what ran and what it left.
        }
        const ran = readdirSync(runDir).map((f) => {
          const [count, ...argv] = readFileSync(join(runDir, f), "utf8").split("\0");
          return argv.slice(0, Number(count));
        });
        const lgRuns = read.commands.filter((c) => c.words[0] === "lg");
        const touched = read.commands.filter((c) => c.words[0] === "touch").flatMap((c) => c.words.slice(1));
        // When every command is lg or touch, each succeeds: with no `||` (which skips) each runs once.
        // A touch given a word like `-v` refuses it as an option and makes nothing.
        const allRun =
          !line.includes("||") &&
          read.commands.every(
            (c) =>
              c.words[0] === "lg" ||
              (c.words[0] === "touch" && !c.words.slice(1).some((w) => w.startsWith("-"))),
          );
        const expected = lgRuns.map((c) => c.words.slice(1));
        const targets = read.commands.flatMap((c) =>
          c.redirects.filter((r) => r.op !== "dup" && r.op !== "<"),
        );
        const what = JSON.stringify(line);
        for (const argv of ran) expect(expected, what).toContainEqual(argv);
        if (allRun) expect(ran.length, what).toBe(expected.length);
        const made = targets.filter((r) => !r.target.startsWith("/dev/")).map((r) => r.target);
        const left = readdirSync(ws).filter((f) => f !== ".git");
        // A command that fails (a literal name that is no program) skips what `&&` joins to it.
        if (allRun) expect(left.sort(), what).toEqual([...new Set([...made, ...touched])].sort());
        else for (const f of left) expect([...made, ...touched], what).toContain(f);
        expect(readdirSync(join(ws, ".git")), what).toEqual([]);
        expect(readdirSync(root), what).toEqual(["ws"]);
      }
      // Both kinds must be common, or the check proves little.
      expect(covered).toBeGreaterThan(80);
      expect(refused).toBeGreaterThan(80);
    },
  );
});

describe("deny rules against real bash", () => {
  it("what bash(rm -rf*) lets through never runs rm with -r and -f", () => {
    const next = seededRandom(7);
    const pick = <T>(a: T[]) => a[Math.floor(next() * a.length)];
    const wrappers = [
      "",
      "sudo ",
      "env ",
      "env -i ",
      "nice -n 5 ",
      "timeout 5 ",
      "command ",
      "exec ",
      "nohup ",
      "X=1 ",
      "time ",
      "builtin ",
      "\\",
      "eval ",
      "bash -c ",
      "sh -c ",
      "echo x | xargs ",
      "if true; then ",
      "( ",
    ];
    const programs = ["rm", `${"BIN"}/rm`, "r''m", '"rm"', "r\\m", "$'rm'", "{rm,", "${R}", "$(echo rm)"];
    const flags = [
      "-rf",
      "-fr",
      "-r -f",
      "-f -r",
      "-Rf",
      "-rfv",
      "--recursive --force",
      "-r --force",
      "-v -r -f",
      "-{r,f}",
      "-r${IFS}-f",
      '-"rf"',
      "'-rf'",
      "-r -- -f",
      "-r",
      "-f",
    ];
    let passed = 0;
    for (let i = 0; i < 600; i++) {
      const wrapper = pick(wrappers);
      const program = pick(programs);
      const flag = pick(flags);
      let cmd = program === "{rm," ? `{rm,${flag.replace(/ /g, ",")},x}` : `${program} ${flag} x`;
      if (program === "${R}") cmd = `R=rm; ${cmd}`;
      if (["bash -c ", "sh -c ", "eval "].includes(wrapper))
        cmd = `${wrapper}'${cmd.replace(/'/g, "'\\''")}'`;
      else if (wrapper === "if true; then ") cmd = `${wrapper}${cmd}; fi`;
      else if (wrapper === "( ") cmd = `( ${cmd} )`;
      else cmd = wrapper + cmd;
      cmd = cmd.replace("BIN", box.bin);
      if (bashDenyMatches("rm -rf*", cmd)) continue;
      passed++;
      expect(runBash(cmd).inside, JSON.stringify(cmd)).not.toContain("RAN");
    }
    // Plain `rm -r x` and `rm -f x` must still pass, or the rule would deny everything.
    expect(passed).toBeGreaterThan(20);
  });
});
