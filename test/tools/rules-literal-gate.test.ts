// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell command lines, `${…}` included on purpose.
// Allow rules by construction (R-TOOL-2): a line is covered only when it is plainly
// literal (policy/literal-line.ts). Each attack is first run in real bash to prove its effect
// (a file written outside the workspace, in HOME or .git/, or a substitution run); then the
// policy must ask. Deny rules see aliases the line defines through BASH_ALIASES / BASH_CMDS and
// git aliases a `git config alias.…` of the line defines.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ApprovalPolicy } from "../../src/tools/policy/approval.js";
import { readLiteralLine } from "../../src/tools/policy/literal-line.js";
import { bashAllowMatches, bashDenyMatches } from "../../src/tools/policy/rules.js";
import { bashCall } from "./helpers.js";
import { useStandIns } from "./stand-ins.js";

const box = useStandIns();

let runs = 0;
/** A fresh workspace `ws` with a `.git/`, beside `outside/` and a HOME of its own. */
function place(): { ws: string; outside: string; home: string } {
  const root = join(box.dirs.root, `r${runs++}`);
  const ws = join(root, "ws");
  mkdirSync(join(ws, ".git"), { recursive: true });
  mkdirSync(join(root, "outside"));
  mkdirSync(join(root, "home"));
  return { ws, outside: join(root, "outside"), home: join(root, "home") };
}

function bash(command: string, cwd: string, home: string): void {
  spawnSync("bash", ["-c", command], {
    cwd,
    stdio: "ignore",
    timeout: 10_000,
    env: { PATH: `${box.bin}:/usr/bin:/bin`, HOME: home },
  });
}

const askPolicy = (cwd: string, allow: string[]) => new ApprovalPolicy({ mode: "ask", allow, deny: [], cwd });

describe("a backslash-newline never hides a redirect", () => {
  const ops = [">", "2>", "&>", ">>", ">&", "{fd}>", ">|", "<>"];
  const targets: [string, (p: ReturnType<typeof place>) => string][] = [
    ["../outside/x", (p) => join(p.outside, "x")],
    ["~/x", (p) => join(p.home, "x")],
    [".git/x", (p) => join(p.ws, ".git/x")],
  ];
  for (const op of ops)
    for (const [target, landed] of targets) {
      const line = `ls ${op}\\\n ${target}`;
      it(`${JSON.stringify(line)} writes there in bash and asks`, () => {
        const p = place();
        bash(line, p.ws, p.home);
        expect(existsSync(landed(p)), "bash must really write the target").toBe(true);
        for (const rule of ["bash(ls*)", "bash(ls *)"]) {
          const v = askPolicy(p.ws, [rule]).evaluate(bashCall(line));
          expect(v.decision, rule).toBe("ask");
          expect(v.reason).toMatch(/plainly literal/);
        }
      });
    }
});

describe("quoted text in an expansion's arithmetic never runs unasked", () => {
  it.each([
    "ls ${PWD:'$(touch m)'}",
    "ls ${PWD:0:'$(touch m)'}",
    "ls ${x[$'\\x24(touch m)']}",
    "ls ${x[$(touch m)]}",
    "ls ${x:-$(touch m)}",
    'ls "$(touch m)"',
    "ls $[$(touch m)]",
  ])("%j", (line) => {
    const p = place();
    bash(line, p.ws, p.home);
    expect(existsSync(join(p.ws, "m")), "bash must really run touch").toBe(true);
    expect(askPolicy(p.ws, ["bash(ls*)"]).decide(bashCall(line))).toBe("ask");
    expect(askPolicy(p.ws, ["bash(git status*)"]).decide(bashCall(line.replace("ls", "git status")))).toBe(
      "ask",
    );
  });
});

describe("builtins that interpret their arguments are not programs with literal arguments", () => {
  it.each([
    "eval 'touch m;' --help",
    "declare 'a[$(touch m)]=1' --help",
    "let 'a[$(touch m)]' --help",
    "read 'a[$(touch m)]' --help",
    "trap 'touch m' EXIT --help",
    "command eval 'touch m;' --help",
    "builtin eval 'touch m;' --help",
  ])("%j runs touch in bash; bash(* --help) does not cover it", (line) => {
    const p = place();
    bash(line, p.ws, p.home);
    expect(existsSync(join(p.ws, "m")), "bash must really run touch").toBe(true);
    expect(bashAllowMatches("* --help", line)).toBe(false);
  });

  it("printf -v and test -v evaluate a name; other printf and test calls are plain", () => {
    expect(bashAllowMatches("printf *", "printf -v 'a[$(touch m)]' x")).toBe(false);
    expect(bashAllowMatches("test *", "test -v 'a[$(touch m)]'")).toBe(false);
    expect(bashAllowMatches("printf *", "printf '%s\\n' a b")).toBe(true);
    expect(bashAllowMatches("test *", "test -f package.json")).toBe(true);
  });
});

describe("the literal grammar", () => {
  it("reads words, quotes, separators, comments and descriptor copies", () => {
    const line = readLiteralLine(
      "git status -s 'a b' \"c;d\" x#y # a comment $(x)\nnpm test 2>&1 | tail -5 && ls {}",
    );
    expect(line).toEqual({
      commands: [
        { words: ["git", "status", "-s", "a b", "c;d", "x#y"], redirects: [], pipeline: 0 },
        { words: ["npm", "test"], redirects: [{ fd: 2, op: "dup", target: "1" }], pipeline: 1 },
        { words: ["tail", "-5"], redirects: [], pipeline: 1 },
        { words: ["ls", "{}"], redirects: [], pipeline: 2 },
      ],
    });
  });

  it("a tilde inside a word and a brace group with no comma or `..` are literal, as bash leaves them", () => {
    const p = place();
    const line = "git log HEAD~1 a/~b c-~ stash@{0} @{u}";
    expect(readLiteralLine(line)).toEqual({
      commands: [
        { words: ["git", "log", "HEAD~1", "a/~b", "c-~", "stash@{0}", "@{u}"], redirects: [], pipeline: 0 },
      ],
    });
    const out = spawnSync("bash", ["-c", `printf '%s\\n' ${line.slice("git log ".length)}`], {
      encoding: "utf8",
      env: { HOME: p.home },
    });
    expect(out.stdout).toBe("HEAD~1\na/~b\nc-~\nstash@{0}\n@{u}\n");
  });

  it.each([
    ["ls *.ts", /glob character `\*`/],
    ["ls ~", /tilde/],
    ["ls ~/x", /tilde/],
    ["ls x=~", /tilde/],
    ["ls a=b:~/x", /tilde/],
    ["ls 'a'~", /tilde/],
    ["ls a\\ b", /backslash/],
    ["ls $HOME", /`\$`/],
    ['ls "$HOME"', /inside double quotes/],
    ["ls {a,b}", /brace/],
    ["ls a{b,c}", /brace/],
    ["ls a{1..2}", /brace/],
    ["ls {u}", /brace/],
    ["ls a{u}}", /brace/],
    ["ls &", /background/],
    ["ls &> x", /`&>`/],
    ["ls >| x", /`>\|`/],
    ["ls <> x", /`<>`/],
    ["ls >&x", /to a file/],
    ["cat <<EOF\nx\nEOF", /here-document/],
    ["ls <<< x", /here-document or here-string/],
    ["(ls)", /subshell/],
    ["X=1 ls", /assignment/],
    ["if true; then ls; fi", /reserved word `if`/],
    ["ls |", /ends after/],
    ["ls ;; ls", /`;;`/],
    ["ls 'open", /unclosed/],
    ["ls\r", /control character/],
    ["ls é", /unquoted character/],
    ["ls 'a\u0000b'", /NUL/],
    ["> x", /redirect with no command/],
    ["ls >", /no literal target/],
    ["ls 12>x", /descriptor 12/],
    ["alias ls=rm", /builtin `alias`/],
    ["exec ls", /builtin `exec`/],
    ["source x", /builtin `source`/],
    ["", /no command/],
  ])("%j is refused (%s)", (line, why) => {
    const read = readLiteralLine(line);
    expect("refused" in read && read.refused, line).toMatch(why);
  });
});

describe("program words a rule can judge", () => {
  it("a relative program path after cd is another folder's file", () => {
    const p = place();
    const policy = askPolicy(p.ws, ["bash(cd *)", "bash(./scripts/*)"]);
    expect(policy.decide(bashCall("./scripts/ok.sh && cd sub"))).toBe("allow");
    expect(policy.decide(bashCall("cd /tmp/evil && ./scripts/ok.sh"))).toBe("ask");
  });
});

describe("redirects of a literal line (R-TOOL-2, §10)", () => {
  it("only to literal workspace paths, and a write only where nothing of the line runs first", () => {
    const p = place();
    writeFileSync(join(p.ws, "f.txt"), "x");
    const policy = askPolicy(p.ws, ["bash(echo *)", "bash(ln *)", "bash(cat *)", "bash(cd *)"]);
    for (const line of [
      "echo x > out.txt",
      "echo x 2>/dev/null >>log",
      "cat -n < f.txt | cat -n",
      "echo x >&2",
    ])
      expect(policy.decide(bashCall(line)), line).toBe("allow");
    const cases: [string, RegExp][] = [
      ["echo x > '../x'", /writes outside the workspace/],
      ['echo x > "/proc/self/cwd/x"', /\/proc/],
      ["echo x > /dev/tcp/127.0.0.1/9", /network/],
      ["cat -n < /dev/tcp/127.0.0.1/9", /network/],
      ["cat -n < ../outside/secret", /reads outside the workspace/],
      ["echo x > .git/config", /protected folder/],
      ["echo x > .tern/config.json", /protected folder/],
      // `ln -sf` turns an existing file into a symlink before the redirect opens it.
      ["ln -sf ../outside/v f.txt; echo x > f.txt", /others of the line run before or beside/],
      ["echo x > f.txt | cat -n", /before or beside/],
      ["cd .. && cat -n < f.txt", /relative path after changing folder/],
    ];
    for (const [line, reason] of cases) {
      const v = policy.evaluate(bashCall(line));
      expect(v.decision, line).toBe("ask");
      expect(v.reason, line).toMatch(reason);
    }
  });

  it("the symlink trick the ordering rule stops is real", () => {
    const p = place();
    writeFileSync(join(p.ws, "f.txt"), "x");
    bash("ln -sf ../outside/v f.txt; echo pwned > f.txt", p.ws, p.home);
    expect(existsSync(join(p.outside, "v"))).toBe(true);
  });
});

describe("grants pass the same literal gate", () => {
  it("a granted `ls` covers only literal ls lines", () => {
    const p = place();
    const policy = askPolicy(p.ws, []);
    expect(policy.describeAlways(bashCall("ls -la"))).toMatch(/`ls -la`/);
    policy.grantAlways(bashCall("ls -la"));
    policy.grantAlways(bashCall("ls"));
    expect(policy.decide(bashCall("ls"))).toBe("allow");
    expect(policy.decide(bashCall("ls src"))).toBe("allow");
    for (const line of ["ls >\\\n ../outside/x", "ls ${PWD:'$(touch m)'}", "ls *", "ls > ../x", "ls &"])
      expect(policy.decide(bashCall(line)), line).toBe("ask");
    // A line that is not literal carries no grant at all.
    expect(policy.describeAlways(bashCall("ls $(pwd)"))).toMatch(/this call only/);
  });
});

describe("deny rules see the aliases a line defines", () => {
  it.each([
    "BASH_ALIASES[zz]='rm -rf'; shopt -s expand_aliases\nzz x",
    "shopt -s expand_aliases; BASH_ALIASES+=([zz]='rm -rf')\nzz x",
    "shopt -s expand_aliases; declare -A BASH_ALIASES=([zz]='rm -rf')\nzz x",
    `BASH_CMDS[zz]=${"BIN"}/rm; zz -rf x`,
  ])("%j runs rm -rf in bash and is denied", (template) => {
    const line = template.replace("BIN", box.bin);
    const p = place();
    bash(line, p.ws, p.home);
    expect(existsSync(join(p.ws, "RAN")), "bash must really run rm -rf").toBe(true);
    expect(bashDenyMatches("rm -rf*", line)).toBe(true);
  });

  it.each([
    ["git config alias.qq push; git qq", "git push*"],
    ["git config --local alias.QQ 'push --force' && git qq origin", "git push*"],
    ["git -C . config alias.qq push\ngit qq", "git push*"],
    ["git config alias.qq '!rm -rf x'; git qq", "rm -rf*"],
  ])("%j is git running the alias, and %j denies it", (line, rule) => {
    const p = place();
    execFileSync("git", ["init", "-q"], { cwd: p.ws });
    const out = spawnSync("bash", ["-c", line], {
      cwd: p.ws,
      encoding: "utf8",
      env: { PATH: `${box.bin}:/usr/bin:/bin`, HOME: p.home, GIT_TRACE: "1" },
    });
    // A `!` alias runs in a shell: the stand-in rm leaves RAN.
    const expanded = /alias expansion: qq => /.test(out.stderr) || existsSync(join(p.ws, "RAN"));
    expect(expanded, "git must expand the alias").toBe(true);
    expect(bashDenyMatches(rule, line)).toBe(true);
  });

  it.each([
    "git config alias.qq push; sudo git qq",
    "git config alias.qq push; bash -c 'git qq'",
    "git config --file .git/config alias.qq push; git qq",
    "git config alias.qq '!git push'; git qq",
    "git config alias.qq push; GIT_TRACE=1 git -C . qq",
  ])("variant %j is denied by bash(git push*)", (line) => {
    expect(bashDenyMatches("git push*", line)).toBe(true);
  });

  it("lines that only look alike are not denied", () => {
    expect(bashDenyMatches("git push*", "git config alias.qq push; git status")).toBe(false);
    expect(bashDenyMatches("git push*", "git config alias.st status; git st")).toBe(false);
    expect(bashDenyMatches("rm -rf*", "declare -A m=([a]=1); echo ${m[a]}")).toBe(false);
  });
});

describe("a rule and a grant name words, not text", () => {
  it("a space in a pattern is a word break", () => {
    expect(bashAllowMatches("npm run test*", "npm run test -- -u")).toBe(true);
    expect(bashAllowMatches("npm run test*", "npm 'run test' x")).toBe(false);
    expect(bashAllowMatches("echo *", "echo 'a b'")).toBe(true);
  });

  it("`always` for sed -i s/a/b/ f.txt does not cover the same text split otherwise", () => {
    const policy = askPolicy(place().ws, []);
    policy.grantAlways(bashCall("sed -i s/a/b/ f.txt"));
    expect(policy.decide(bashCall("sed -i s/a/b/ f.txt"))).toBe("allow");
    expect(policy.decide(bashCall("sed '-i s/a/b/' f.txt"))).toBe("ask");
    expect(policy.decide(bashCall("sed -i 's/a/b/ f.txt'"))).toBe("ask");
  });
});
