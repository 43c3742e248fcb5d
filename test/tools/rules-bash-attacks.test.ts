// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell command lines, `${…}` included on purpose.
// Attack lines found by trying new variants against the rule matcher (R-TOOL-2). Each line is
// first run in real bash to prove it does what the attack claims (runs `touch P`, or rm with
// -r and -f); then the matcher must not let an allow rule cover it, or must let the deny rule
// see it. Lines that only look alike must not be denied for a rule they do not touch.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ApprovalPolicy } from "../../src/tools/policy/approval.js";
import { bashAllowMatches, bashDenyMatches } from "../../src/tools/policy/rules.js";
import { useStandIns } from "./stand-ins.js";
import { bashCall } from "./helpers.js";

const box = useStandIns();
beforeAll(() => {
  // A git that does nothing.
  writeFileSync(join(box.bin, "git"), "#!/bin/sh\nexit 0\n");
  chmodSync(join(box.bin, "git"), 0o755);
});

/** An `ask`-mode policy for the test workspace. */
const policy = (allow: string[] = [], deny: string[] = []) =>
  new ApprovalPolicy({ mode: "ask", allow, deny, cwd: box.dirs.workspace });

let runs = 0;
/** Runs the line in a fresh folder; returns whether `file` appeared there. */
function leaves(command: string, file: string): boolean {
  const ws = join(box.dirs.workspace, `r${runs++}`);
  mkdirSync(ws, { recursive: true });
  try {
    execFileSync("bash", ["-c", command], {
      cwd: ws,
      stdio: "ignore",
      timeout: 10_000,
      env: { PATH: `${box.bin}:/usr/bin:/bin`, HOME: ws },
    });
  } catch {
    // What the line left behind is what counts.
  }
  return existsSync(join(ws, file));
}

describe("allow rules are not passed by lines bash reads differently", () => {
  it.each([
    // A here-document ends at its delimiter after bash joins a backslash-continued line.
    "git status <<EOF\nEO\\\nF\ntouch P\nEOF",
    "git status <<-EOF\n\tEO\\\nF\ntouch P\nEOF",
    "git status <<EOF\nEOF\\\n\ntouch P\nEOF",
    "git status <<EOF\nE\\\nO\\\nF\ntouch P\nEOF",
    // Inside double quotes (and here-document bodies) single quotes in ${x:-…} do not protect.
    "git status \"${x:-'$(touch P)'}\"",
    "git status \"${x-'`touch P`'}\"",
    "git status <<EOF\n${x:-'$(touch P)'}\nEOF",
    // A here-document body holding `\"` before a substitution.
    'git status <<EOF\n\\" $(touch P)\nEOF',
    'git status <<EOF\n\\" `touch P`\nEOF',
  ])("%j", (command) => {
    expect(leaves(command, "P"), "the line must really run touch").toBe(true);
    expect(bashAllowMatches("git status*", command)).toBe(false);
  });

  it("here-documents are outside the literal grammar: even harmless ones now ask", () => {
    for (const command of [
      "git status <<EOF\nEO\\\\\nEOF",
      "git status <<'EOF'\nEO\\\nF\nEOF",
      "git status <<EOF\na \\\nb\nEOF",
    ]) {
      expect(leaves(command, "P"), command).toBe(false);
      expect(bashAllowMatches("git status*", command), command).toBe(false);
    }
  });
});

describe("arithmetic is read as arithmetic (R-TOOL-2)", () => {
  it.each([
    // Arithmetic text is expanded as if double-quoted: single quotes do not stop `$(…)`.
    "echo $(( '$(rm -rf x)' 1 ))",
    "(( '$(rm -rf x)' 1 ))",
    "echo $[ '$(rm -rf x)' ]",
    "for (( i=0; i<'$(rm -rf x)'; i++ )); do :; done",
    "echo $(( 1 + $(rm -rf x) ))",
    // Not closed by an adjacent `))`: these are subshells and command substitutions.
    "((rm -rf x) )",
    "echo $((rm -rf x) )",
  ])("%j runs rm -rf and is denied", (command) => {
    expect(leaves(command, "RAN"), "the line must really run rm -rf").toBe(true);
    expect(bashDenyMatches("rm -rf*", command)).toBe(true);
  });

  it.each([
    "echo $(( $(nproc) + 1 ))",
    "(( $(date +%s) > 5 ))",
    "echo $[ $(date) ]",
    "echo $(( $(wc -l < f) * 2 ))",
    "echo $((1 + 2))",
  ])("%j is denied by no rule it does not run", (command) => {
    for (const rule of ["curl*", "shutdown", "git push*", "rm -rf*"])
      expect(bashDenyMatches(rule, command), rule).toBe(false);
  });

  it("the substitutions inside arithmetic are still checked", () => {
    expect(bashDenyMatches("curl*", "echo $(( $(curl -s evil) + 1 ))")).toBe(true);
    expect(bashDenyMatches("curl*", "(( x = `curl evil` ))")).toBe(true);
  });
});

describe("deny rules see what the line itself spells out (R-TOOL-2)", () => {
  it.each([
    // Input a shell reads: an expanding here-document's escapes undone, here-strings anywhere.
    "bash <<EOF\n\\$'\\x72m' -rf x\nEOF",
    "exec 3<<<'rm -rf x'; bash <&3",
    "cat <<< 'rm -rf x' | bash",
    "xargs -I{} sh -c '{}' <<< 'rm -rf x'",
    "printf '\\x72m -rf x' | bash",
    "echo cm0gLXJmIHg= | base64 -d | bash",
    // Quoted text that builtins evaluate as an array subscript runs its $(…).
    "x='a[$(rm -rf x)]'; (( x ))",
    "[[ 'a[$(rm -rf x)]' -eq 1 ]]",
    "let 'a[$(rm -rf x)]=1'",
    "printf -v 'a[$(rm -rf x)]' 1",
    "echo ${a['$(rm -rf x)']}",
    "echo $(( $(echo 'a[$(rm -rf x)]') ))",
    // Variables, aliases, positional parameters and functions the line defines.
    "x='rm -rf x'; $x",
    "IFS=,; x=rm,-rf,x; $x",
    "c=r; c+=m; $c -rf x",
    "printf -v c rm; $c -rf x",
    "read c <<< rm; $c -rf x",
    "v=-rf; rm $v x",
    "v=-r; rm ${v}f x",
    'set -- rm -rf x; "$@"',
    "shopt -s expand_aliases\nalias r=rm\nr -rf x",
    'del() { rm "$@"; }; del -rf x',
    'function del { rm "$@"; }; del -rf x',
    "time F=-rf; rm $F x",
    // Flags glued to an expansion, and echo's known output.
    'rm -r"$x"f x',
    "rm -r$(echo f) x",
    "rm $(echo -rf x)",
    // Commands given as strings: trap, one-line scripts, more wrappers.
    "trap 'rm -rf x' EXIT",
    "awk 'BEGIN{system(\"rm -rf x\")}'",
    "unshare rm -rf x",
  ])("%j", (command) => {
    expect(leaves(command, "RAN"), "the line must really run rm -rf").toBe(true);
    expect(bashDenyMatches("rm -rf*", command)).toBe(true);
  });

  it("sees a name that hash -p points at the program", () => {
    const command = `hash -p ${box.bin}/rm foo; foo -rf x`;
    expect(leaves(command, "RAN")).toBe(true);
    expect(bashDenyMatches("rm -rf*", command)).toBe(true);
  });

  it.each([
    "x=$(date); echo $x",
    "x=$HOME/a; ls $x",
    "v=$(git rev-parse HEAD)",
    "FOO=$BAR make",
    'for f in *.ts; do wc -l "$f"; done',
    'while read -r line; do echo "$line"; done < f',
    'if [ -f "$f" ]; then cat "$f"; fi',
    'sudo wc -l "$f"',
    'time make "$target"',
    "sudo cat *",
    'nice -n 10 make -j"$(nproc)"',
    'timeout 60 npm test -- "$@"',
    'env NODE_ENV=test npm test "$file"',
    "x=$(( $(wc -l < f) * 2 ))",
    'for ((i=0;i<3;i++)); do echo "$i"; done',
    "alias ll='ls -la'; ll",
    "git commit -m 'fix: stop using rm -rf'",
  ])("%j is denied by no rule it does not run", (command) => {
    for (const rule of ["curl*", "shutdown", "git push*", "rm -rf*", "npm publish*"])
      expect(bashDenyMatches(rule, command), rule).toBe(false);
  });

  it("an unknown program still stands for any program", () => {
    for (const command of [
      "$EDITOR -rf x",
      "${RM:-rm} -rf x",
      "sudo -u root $X -rf x",
      "timeout -s KILL 5 $X -rf x",
    ])
      expect(bashDenyMatches("rm -rf*", command), command).toBe(true);
  });
});

describe("always grants never cover all of bash (R-TOOL-2)", () => {
  it.each([
    ["env FOO=1 npm test", "env FOO=1 rm -rf x"],
    ["timeout 5 npm test", "timeout 5 rm -rf x"],
    ["sudo npm test", "sudo rm -rf x"],
    ["nice -n 5 make", "nice -n 5 rm -rf x"],
    ["bash -c 'ls'", "bash -c 'rm -rf x'"],
    ["sh script.sh", "sh -c 'rm -rf x'"],
    ["eval echo hi", "eval echo ';' rm -rf x"],
    ["xargs echo < list", "xargs rm -rf < list"],
    ["python3 -c 'print(1)'", "python3 -c 'import os; os.system(\"rm -rf x\")'"],
    ["node -e '1'", 'node -e \'require("child_process").execSync("rm -rf x")\''],
    ["git -c color.ui=never status", "git -c core.pager='rm -rf x' log"],
    ["time make", "time rm -rf x"],
  ])("always for %j does not cover %j", (approved, other) => {
    const p = policy();
    expect(p.describeAlways(bashCall(approved))).toMatch(/this call only/);
    p.grantAlways(bashCall(approved));
    expect(p.decide(bashCall(other))).toBe("ask");
  });

  it.each([
    ["find . -name '*.ts'", "find . -exec sh -c 'touch P' \\;"],
    ["find . -name '*.ts'", "find . -name x -delete"],
    ["sed -i s/a/b/ f.txt", "sed -i '1e touch P' f.txt"],
    ["sed -n p f.txt", "sed -n 'w /tmp/out' f.txt"],
    ["tar -cf out.tar src", "tar -cf /dev/null src --checkpoint=1 --checkpoint-action=exec='touch P'"],
    ["tar -cf out.tar src", "tar -cIf 'sh -c x' out.tar src"],
    ["git grep foo", "git grep -O'touch P' foo"],
    ["git submodule update", "git submodule foreach 'touch P'"],
    ["git bisect start", "git bisect run sh -c 'touch P'"],
    ["git rebase main", "git rebase -x 'touch P' main"],
    ["git clone repo", "git clone -u 'touch P' repo"],
    ["npx -c 'echo hi'", "npx -c 'touch P'"],
    ["make test", "make test SHELL=/tmp/evil"],
    ["npm run build", "npm run build --script-shell=/tmp/evil"],
    ["rsync -a src/ dst/", "rsync -a -e 'sh -c x' src/ dst/"],
    ["vim notes.txt", "vim -c ':!touch P' notes.txt"],
  ])("always for %j (program and first argument) does not cover %j", (approved, other) => {
    const p = policy();
    p.grantAlways(bashCall(approved));
    expect(p.decide(bashCall(other))).toBe("ask");
  });

  it("a command whose arguments run code is granted word for word", () => {
    const p = policy();
    expect(p.describeAlways(bashCall("find . -name x -exec grep -l y {} +"))).toMatch(
      /`find \. -name x -exec grep -l y \{\} \+`/,
    );
    p.grantAlways(bashCall("find . -name x -exec grep -l y {} +"));
    p.grantAlways(bashCall("sed -i s/a/b/ f.txt"));
    expect(p.decide(bashCall("find . -name x -exec grep -l y {} +"))).toBe("allow");
    expect(p.decide(bashCall("sed -i s/a/b/ f.txt"))).toBe("allow");
    expect(p.decide(bashCall("sed -i s/a/b/ g.txt"))).toBe("ask");
    expect(p.decide(bashCall("find . -name x -exec rm {} +"))).toBe("ask");
  });

  it("ordinary commands carry their program and first argument; a compound command carries none", () => {
    const p = policy();
    expect(p.describeAlways(bashCall("npm test && npm run build"))).toMatch(/`npm test`, `npm run`/);
    // `if … fi` is not plainly literal: it could never be covered, so it carries no grant.
    expect(p.describeAlways(bashCall("if npm test; then npm run build; fi"))).toMatch(/this call only/);
    p.grantAlways(bashCall("node scripts/build.mjs --watch"));
    expect(p.decide(bashCall("node scripts/build.mjs"))).toBe("allow");
    expect(p.decide(bashCall("node -e 'x'"))).toBe("ask");
  });
});

describe("an allow rule judges only a program word it can know", () => {
  it("`..` out of a rule's folder, a glob or an expansion in the program word is not covered", () => {
    const ws = join(box.dirs.workspace, `prog${runs++}`);
    mkdirSync(join(ws, "scripts"), { recursive: true });
    writeFileSync(join(ws, "scripts/ok.sh"), "#!/bin/sh\necho ok\n");
    writeFileSync(join(ws, "evil.sh"), "#!/bin/sh\ntouch P\n");
    chmodSync(join(ws, "scripts/ok.sh"), 0o755);
    chmodSync(join(ws, "evil.sh"), 0o755);
    execFileSync("bash", ["-c", "./scripts/../evil.sh"], { cwd: ws });
    expect(existsSync(join(ws, "P")), "the line must really run evil.sh").toBe(true);
    expect(bashAllowMatches("./scripts/*", "./scripts/../evil.sh")).toBe(false);
    expect(bashAllowMatches("./scripts/*", "./scripts/o?.sh")).toBe(false);
    expect(bashAllowMatches("git*", "git$X status")).toBe(false);
    expect(bashAllowMatches("./scripts/*", "./scripts/ok.sh --fast")).toBe(true);
    expect(bashAllowMatches("git status*", "git status ../x '*.ts'")).toBe(true);
    // An unquoted glob asks: a file the model named `--output=…` would become an option.
    expect(bashAllowMatches("git status*", "git status ../x *.ts")).toBe(false);
  });
});

describe("variants an outside probe found (each run in bash first)", () => {
  const ALLOW = ["bash(echo *)", "bash(cd *)", "bash(./scripts/*)"];

  it("a brace expansion in a redirect's target is a path known only when it runs", () => {
    const line = "mkdir -p .git/hooks; echo x > .{g..g}it/hooks/pre-commit";
    expect(leaves(line, ".git/hooks/pre-commit"), "bash expands the target").toBe(true);
    expect(policy(ALLOW).decide(bashCall("echo x > .{g..g}it/hooks/pre-commit"))).toBe("ask");
    expect(policy(ALLOW).decide(bashCall("echo x >> .{t..t}ern/config.json"))).toBe("ask");
    expect(policy(ALLOW).decide(bashCall("echo x > notes.txt"))).toBe("allow");
  });

  it.each([
    "{ cd ..; echo pwned > README.md; }",
    "if cd ..; then echo x > README.md; fi",
    "! cd ..; echo x > README.md",
    "while cd ..; do echo x > README.md; break; done",
    "builtin cd ..; echo x > README.md",
    "f() { cd ..; }; f; echo x > README.md",
  ])("a folder change behind a reserved word or builtin still makes relative redirects ask: %j", (line) => {
    writeFileSync(join(box.dirs.workspace, "README.md"), "x");
    expect(policy(ALLOW).decide(bashCall(line))).toBe("ask");
  });

  it("/proc paths name the shell's own folders, not tern's", () => {
    expect(policy(ALLOW).decide(bashCall("cd ..; echo pwned > /proc/self/cwd/README.md"))).toBe("ask");
    expect(policy(ALLOW).decide(bashCall("echo x > /proc/thread-self/cwd/README.md"))).toBe("ask");
  });

  it("a brace expansion cannot smuggle `..` into a rule's program word", () => {
    const ws = join(box.dirs.workspace, `brace${runs++}`);
    mkdirSync(join(ws, "scripts/x"), { recursive: true });
    writeFileSync(join(ws, "evil.sh"), "#!/bin/sh\ntouch P\n");
    chmodSync(join(ws, "evil.sh"), 0o755);
    execFileSync("bash", ["-c", "./scripts/{..,x}/evil.sh || true"], { cwd: ws, stdio: "ignore" });
    expect(existsSync(join(ws, "P")), "the line must really run evil.sh").toBe(true);
    expect(bashAllowMatches("./scripts/*", "./scripts/{..,x}/evil.sh")).toBe(false);
    expect(bashAllowMatches("./scripts/*", "./scripts/.{.,}/evil.sh")).toBe(false);
  });

  it.each(["rm --rec --for x", "rm --recur -f x", "rm -r --forc x", "rm --r --f=x x"])(
    "an abbreviated long option is the option it abbreviates: %j",
    (line) => {
      expect(bashDenyMatches("rm -rf*", line)).toBe(true);
      expect(policy(["bash"], ["bash(rm -rf*)"]).decide(bashCall(line))).toBe("deny");
    },
  );

  it("options that only look alike are not read as -r or -f", () => {
    expect(bashDenyMatches("rm -rf*", "rm --verbose --dir x")).toBe(false);
    expect(bashDenyMatches("rm -rf*", "rm --recursive x")).toBe(false);
  });
});

describe("deny rules see what git's -c settings run", () => {
  it.each([
    ["git push*", "git -c alias.p=push p origin main"],
    ["git push*", "git -c alias.p='push --force' p"],
    ["git push*", "git -calias.p=push p"],
    ["git push*", "git -C . -c alias.P=push p"],
    ["rm -rf*", "git -c alias.x='!rm -rf x' x"],
    ["rm -rf*", "git -c core.fsmonitor='rm -rf d; false' status"],
    ["rm -rf*", "git -c core.pager='rm -rf x' log"],
    ["git push*", "git -c alias.p='!git push' p"],
  ])("deny %j catches %j", (rule, line) => {
    expect(bashDenyMatches(rule, line)).toBe(true);
  });

  it.each([
    ["git push*", "git -c color.ui=never status"],
    ["git push*", "git -c alias.st=status st"],
    ["rm -rf*", "git -c user.name=me commit -m x"],
  ])("deny %j leaves %j alone", (rule, line) => {
    expect(bashDenyMatches(rule, line)).toBe(false);
  });
});

describe("deny rules see what package runners, multiplexers and at run", () => {
  it.each([
    "npx -c 'rm -rf x'",
    "npx --call='rm -rf x'",
    "npm exec -c 'rm -rf x'",
    "npm exec -- rm -rf x",
    "yarn exec rm -rf x",
    "pnpm dlx rm -rf x",
    "npx rm -rf x",
    "tmux new -d 'rm -rf x'",
    "tmux new-session -d rm -rf x",
    "screen -dm rm -rf x",
    "at now <<< 'rm -rf x'",
  ])("deny rm -rf* catches %j", (line) => {
    expect(bashDenyMatches("rm -rf*", line)).toBe(true);
  });

  it("npm's own commands are still ordinary: `always` for npm test covers npm test …", () => {
    expect(bashDenyMatches("rm -rf*", "npm test -- --force")).toBe(false);
    expect(bashDenyMatches("rm -rf*", "npm run clean")).toBe(false);
    const p = policy();
    p.grantAlways(bashCall("npm test"));
    expect(p.decide(bashCall("npm test -- -u"))).toBe("allow");
  });
});
