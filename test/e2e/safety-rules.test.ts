// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell command lines, `${…}` included on purpose.
// Attacks on permission rules through `tern run` (R-TOOL-2, §10): a bash-faithful parse, output
// redirects as writes, deny rules through wrappers and flag order, symlinked and protected
// paths. Each test replays what a hostile model would send and checks what really happened
// on disk, never only what tern said.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";

const e = useE2E();
const ws = (name: string) => join(e.dirs.workspace, name);
const outside = (name: string) => join(e.dirs.root, name);

type Call = { id: string; name: string; args: Record<string, unknown> };
const bashCalls = (commands: string[], prefix = "c"): Call[] =>
  commands.map((command, i) => ({ id: `${prefix}${i}`, name: "bash", args: { command } }));

async function runBatch(calls: Call[], args: string[], env: Record<string, string> = {}) {
  e.provider.enqueue(openaiToolCalls(calls), openaiText("ok"));
  const run = await ternRun(e, args, "do it", { env: { HOME: outside("fakehome"), ...env } });
  expect(run.stderr).not.toMatch(/internal error/);
  expect(run.code).toBe(0);
  const sent = toolMessages(e.provider.requests[1].body);
  const approvals = new Map(
    run.events.filter((ev) => ev.type === "approval").map((ev) => [ev.id, ev.decision]),
  );
  return { run, sent, approvals };
}

describe("the shell parse follows bash (R-TOOL-2)", () => {
  it("a mid-word # is not a comment: `git status a#; touch PWNED` asks, and so do substitutions", async () => {
    const attacks = [
      "git status a#; touch PWNED0",
      "git status a\\#; touch PWNED1",
      "git status a#\ntouch PWNED2",
      "git status `touch PWNED3`",
      "git status $(touch PWNED4)",
      "git status <(touch PWNED5)",
      "git status ${x:-$(touch PWNED6)}",
      "git status <<EOF\n$(touch PWNED7)\nEOF",
      "git status a#&touch PWNED8",
      "git status a#|touch PWNED9",
      "git status $((1+$(touch PWNED10)))",
      "git status ${IFS}; touch PWNED11",
      "git status; ((git status <<2))\ntouch PWNED12\n2",
      "git status $[$(touch PWNED13)]",
    ];
    const { sent, approvals } = await runBatch(bashCalls(attacks), ["--allow", "bash(git status*)"]);
    attacks.forEach((_, i) => {
      expect(existsSync(ws(`PWNED${i}`)), attacks[i]).toBe(false);
      expect(approvals.get(`c${i}`), attacks[i]).toBe("denied");
      expect(sent[i].content).toMatch(/without --yes/);
    });
  });

  it("quoted separators stay inside their word and a plain allowed command still runs", async () => {
    const calls = bashCalls(["git status 'a;touch X'", 'git status "b && touch Y" # trailing; touch Z']);
    const { approvals } = await runBatch(calls, ["--allow", "bash(git status*)"]);
    expect(approvals.size).toBe(0);
    for (const f of ["X", "Y", "Z"]) expect(existsSync(ws(f))).toBe(false);
  });

  it("a command the matcher cannot read asks (denied in tern run) and is never an internal error", async () => {
    const { run, sent, approvals } = await runBatch(bashCalls(["echo ${}", "echo 'open"]), [
      "--allow",
      "bash(echo *)",
    ]);
    expect(approvals.get("c0")).toBe("denied");
    expect(approvals.get("c1")).toBe("denied");
    expect(sent[0].content).toMatch(/without --yes/);
    expect(run.end).toMatchObject({ stop_reason: "completed" });
  });

  it("a deny rule sees past a mid-word #", async () => {
    writeUserConfig(e, { permissions: { deny: ["bash(touch *)"] } });
    const { sent } = await runBatch(bashCalls(["echo a#; touch PWNED"]), ["--yes"]);
    expect(sent[0].content).toBe("denied by rule bash(touch *)");
    expect(existsSync(ws("PWNED"))).toBe(false);
  });
});

describe("redirects are writes (R-TOOL-2)", () => {
  it("an allowed command may not redirect outside the workspace, into .git/, or to /dev/tcp", async () => {
    mkdirSync(outside("fakehome"), { recursive: true });
    mkdirSync(ws(".git/hooks"), { recursive: true });
    const attacks = [
      "echo pwned > ../x",
      "echo pwned > ~/.bashrc",
      "echo pwned >> $HOME/.profile",
      "echo pwned > /dev/tcp/127.0.0.1/9",
      "echo pwned &> ../y",
      "echo pwned >| ../z",
      "echo pwned 2> ../w",
      "echo pwned >&../v",
      "echo pwned > .git/hooks/pre-commit",
      "cd .. && echo pwned > u",
      "echo pwned 1<> ../t",
    ];
    const { sent, approvals } = await runBatch(bashCalls(attacks), ["--allow", "bash(echo *)"]);
    attacks.forEach((a, i) => {
      expect(approvals.get(`c${i}`), a).toBe("denied");
      expect(sent[i].content, a).toMatch(/without --yes/);
    });
    for (const f of ["x", "y", "z", "w", "v", "u", "t"]) expect(existsSync(outside(f)), f).toBe(false);
    expect(existsSync(join(outside("fakehome"), ".bashrc"))).toBe(false);
    expect(existsSync(join(outside("fakehome"), ".profile"))).toBe(false);
    expect(existsSync(ws(".git/hooks/pre-commit"))).toBe(false);
  });

  it("a redirect target that an earlier command may create as a symlink asks", async () => {
    const { approvals } = await runBatch(bashCalls(["ln -s ../lnk l && echo pwned > l"]), [
      "--allow",
      "bash(echo *)",
      "--allow",
      "bash(ln *)",
    ]);
    expect(approvals.get("c0")).toBe("denied");
    expect(existsSync(outside("lnk"))).toBe(false);
  });

  it("a redirect target made a symlink by an earlier call of the batch is judged again", async () => {
    writeUserConfig(e, { parallelTools: false });
    const { sent } = await runBatch(bashCalls(["ln -s ../lnk2 l2", "echo pwned > l2"]), [
      "--allow",
      "bash(echo *)",
      "--allow",
      "bash(ln *)",
    ]);
    expect(existsSync(outside("lnk2"))).toBe(false);
    expect(sent[1].content).toMatch(/Not run: it writes outside the workspace/);
  });

  it("redirects inside the workspace, to /dev/null and between descriptors are covered", async () => {
    const calls = bashCalls(["echo in > inside.txt", "echo hi 2>/dev/null >&2", "echo ok 2>&1 >>log.txt"]);
    const { approvals } = await runBatch(calls, ["--allow", "bash(echo *)"]);
    expect(approvals.size).toBe(0);
    expect(readFileSync(ws("inside.txt"), "utf8")).toBe("in\n");
    expect(readFileSync(ws("log.txt"), "utf8")).toBe("ok\n");
  });
});

describe("deny rules see through wrappers and flag order (R-TOOL-2)", () => {
  it("bash(rm -rf*) stops every spelling of rm -rf, even with --yes", async () => {
    const variants = [
      "/bin/rm -rf d0",
      "rm -r -f d1",
      "rm -fr d2",
      "rm -Rf d3",
      "rm --recursive --force d4",
      "X=1 rm -rf d5",
      "bash -c 'rm -rf d6'",
      'sh -c "cd . && rm -rf d7"',
      "eval rm -rf d8",
      "echo d9 | xargs rm -rf",
      "sudo -n rm -rf d10",
      "env -i rm -rf d11",
      "command rm -rf d12",
      "nice -n 5 rm -rf d13",
      "timeout -s KILL 5 rm -rf d14",
      "exec rm -rf d15",
      "{rm,-rf,d16}",
      "rm${IFS}-rf${IFS}d17",
      "r\\m -rf d18",
      "'rm' -rf d19",
      "find . -name d20 -exec rm -rf {} +",
      "bash <<< 'rm -rf d21'",
      "/???/r? -rf d22",
      "$(echo rm) -rf d23",
      "rm -v -r -f -- d24",
      "rm d25 -rf",
      "echo ok; rm -rf d26 # cleanup",
      "bash -c \"bash -c 'rm -rf d27'\"",
      "env FOO=1 timeout 5 nohup rm -rf d28",
      "x=rm; $x -rf d29",
      "bash <<'EOF'\nrm -rf d30\nEOF",
      "if true; then rm -rf d31; fi",
      "(rm -rf d32)",
      "f() { rm -rf d33; }; f",
      "rm -rf\td34",
    ];
    for (let i = 0; i < variants.length; i++) mkdirSync(ws(`d${i}`));
    writeUserConfig(e, { permissions: { deny: ["bash(rm -rf*)"] } });
    const { sent } = await runBatch(bashCalls(variants), ["--yes"]);
    variants.forEach((v, i) => {
      expect(sent[i].content, v).toBe("denied by rule bash(rm -rf*)");
      expect(existsSync(ws(`d${i}`)), v).toBe(true);
    });
  });

  it("rm without both flags is not caught by bash(rm -rf*)", async () => {
    writeFileSync(ws("plain.txt"), "x");
    mkdirSync(ws("keep"));
    writeUserConfig(e, { permissions: { deny: ["bash(rm -rf*)"] } });
    const { sent } = await runBatch(bashCalls(["rm plain.txt", "rm -r keep"]), ["--yes"]);
    expect(sent[0].content).not.toMatch(/denied/);
    expect(existsSync(ws("plain.txt"))).toBe(false);
    expect(existsSync(ws("keep"))).toBe(false);
  });
});

describe("symlinks and protected folders (§10)", () => {
  const autoEdit = () => writeUserConfig(e, { permissions: { mode: "auto-edit" }, parallelTools: false });
  const write = (id: string, path: string) => ({
    id,
    name: "write_file",
    args: { path, content: "pwned\n" },
  });

  // An existing file must be read before it is written, or the call is refused before any prompt
  // (R-UI-19); these reads, earlier in the same batch, make the write one that could run, so the
  // check below is the one that asks.
  const read = (id: string, path: string) => ({ id, name: "read_file", args: { path } });

  it("write_file through a dangling symlink or a symlinked folder asks in auto-edit", async () => {
    autoEdit();
    mkdirSync(outside("out"));
    symlinkSync("../out/new.txt", ws("dangling"));
    symlinkSync("../out", ws("linkdir"));
    symlinkSync(ws("dangling"), ws("chain"));
    const { approvals, sent } = await runBatch(
      [write("w0", "dangling"), write("w1", "linkdir/a.txt"), write("w2", "chain")],
      [],
    );
    for (const id of ["w0", "w1", "w2"]) expect(approvals.get(id)).toBe("denied");
    expect(existsSync(outside("out/new.txt"))).toBe(false);
    expect(existsSync(outside("out/a.txt"))).toBe(false);
    expect(sent[0].content).toMatch(/without --yes/);
  });

  it("a path rule matches the resolved path: write_file(src/**) does not cover src/link -> ../package.json", async () => {
    writeFileSync(ws("package.json"), "{}\n");
    mkdirSync(ws("src"));
    symlinkSync("../package.json", ws("src/link"));
    const { approvals } = await runBatch(
      [read("r0", "src/link"), write("w0", "src/link"), write("w1", "src/ok.ts")],
      ["--allow", "write_file(src/**)"],
    );
    expect(approvals.get("w0")).toBe("denied");
    expect(approvals.has("w1")).toBe(false);
    expect(readFileSync(ws("package.json"), "utf8")).toBe("{}\n");
    expect(readFileSync(ws("src/ok.ts"), "utf8")).toBe("pwned\n");
  });

  it("a symlink made earlier in the same batch does not carry an approved write outside", async () => {
    autoEdit();
    mkdirSync(outside("out"));
    const { sent } = await runBatch(
      [{ id: "b0", name: "bash", args: { command: "ln -s ../out/t.txt later" } }, write("w1", "later")],
      ["--allow", "bash(ln *)"],
    );
    expect(existsSync(outside("out/t.txt"))).toBe(false);
    // Judged again when it runs, after the link exists: it asks (denied without --yes), naming the target.
    expect(sent[1].content).toMatch(/without --yes.*writes outside the workspace: .*out\/t\.txt/s);
  });

  it("auto-edit does not edit .git/ or .tern/ without asking", async () => {
    autoEdit();
    mkdirSync(ws(".git"));
    writeFileSync(ws(".git/config"), "[core]\n");
    symlinkSync(".git", ws("gitlink"));
    const calls = [
      read("r0", ".git/config"),
      read("r3", "gitlink/config"),
      write("w0", ".git/config"),
      write("w1", ".git/hooks/pre-commit"),
      write("w2", ".tern/config.json"),
      write("w3", "gitlink/config"),
      write("w4", "sub/.git/config"),
    ];
    const { approvals } = await runBatch(calls, []);
    for (const c of calls.filter((c) => c.name === "write_file"))
      expect(approvals.get(c.id), c.args.path as string).toBe("denied");
    expect(readFileSync(ws(".git/config"), "utf8")).toBe("[core]\n");
    expect(existsSync(ws(".tern/config.json"))).toBe(false);
  });

  it("--yes (yolo) may write .git/config", async () => {
    mkdirSync(ws(".git"));
    const { approvals } = await runBatch([write("w0", ".git/info.txt")], ["--yes"]);
    expect(approvals.size).toBe(0);
    expect(readFileSync(ws(".git/info.txt"), "utf8")).toBe("pwned\n");
  });
});

describe("MCP rule names (R-TOOL-2)", () => {
  const SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
  const echo = (id: string, text: string) => ({ id, name: "fx__echo", args: { text } });

  it("mcp__<set>__<tool>(pattern) allows by argument pattern; a deny rule beats --yes", async () => {
    writeUserConfig(e, { toolSets: [{ name: "fx", command: process.execPath, args: [SERVER] }] });
    const allowed = await runBatch(
      [echo("m0", "ok then"), echo("m1", "other")],
      ["--allow", 'mcp__fx__echo({"text":"ok*)'],
    );
    expect(allowed.sent[0].content).toBe("echo: ok then");
    expect(allowed.approvals.get("m1")).toBe("denied");
  });

  it("deny rules match <set>__<tool> names with patterns, even with --yes", async () => {
    writeUserConfig(e, {
      toolSets: [{ name: "fx", command: process.execPath, args: [SERVER] }],
      permissions: { deny: ["fx__*(*secret*)"] },
    });
    const { sent } = await runBatch([echo("m0", "the secret"), echo("m1", "fine")], ["--yes"]);
    expect(sent[0].content).toBe("denied by rule fx__*(*secret*)");
    expect(sent[1].content).toBe("echo: fine");
  });
});

describe("invalid rules are configuration errors (R-CFG-1)", () => {
  it("--allow 'bash(' exits 2 with one line naming the flag and creates no session", async () => {
    const run = await ternRun(e, ["--allow", "bash("]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/--allow: invalid rule "bash\("/);
    expect(existsSync(join(e.dirs.home, "sessions"))).toBe(false);
    expect(e.provider.requests).toHaveLength(0);
  });

  it("a bad permissions.deny entry names the file and key; config check calls it invalid", async () => {
    writeUserConfig(e, { permissions: { deny: ["bash(rm *)", "no good("] } });
    const run = await ternRun(e, []);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/config\.json: permissions\.deny\[1\]: invalid rule "no good\("/);
    expect(existsSync(join(e.dirs.home, "sessions"))).toBe(false);
    const check = await e.run(["config", "check"]);
    expect(check.code).toBe(2);
    expect(check.stderr).toMatch(/permissions\.deny\[1\]/);
  });
});

describe("config files (§10)", () => {
  it("an untrusted workspace config cannot raise budgets, the bash timeout or prices", async () => {
    writeUserConfig(e, { executionBudget: { maximumToolCalls: 50 }, bashTimeoutSeconds: 60 });
    mkdirSync(ws(".tern"));
    writeFileSync(
      ws(".tern/config.json"),
      JSON.stringify({
        executionBudget: { maximumModelCalls: null, maximumToolCalls: 100000, maximumDurationSeconds: 10 },
        bashTimeoutSeconds: "unlimited",
        models: { "openai/mock-1": { pricing: { input: 0, output: 0 } } },
      }),
    );
    const check = await e.run(["config", "check"]);
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/executionBudget\.maximumModelCalls = 1024 {2}\[default\]/);
    expect(check.stdout).toMatch(/executionBudget\.maximumToolCalls = 50 /);
    expect(check.stdout).toMatch(/executionBudget\.maximumDurationSeconds = 10 {2}\[\.tern\/config\.json\]/);
    expect(check.stdout).toMatch(/bashTimeoutSeconds = 60 /);
    expect(check.stdout).not.toMatch(/pricing\.input = 0/);
    for (const key of [
      "executionBudget.maximumModelCalls",
      "executionBudget.maximumToolCalls",
      "bashTimeoutSeconds",
      'models["openai/mock-1"].pricing',
    ])
      expect(check.stdout).toContain(`${key} ignored`);
  });

  it("a UTF-8 byte-order mark at the start of config.json is accepted", async () => {
    writeFileSync(join(e.dirs.home, "config.json"), `\uFEFF${JSON.stringify({ bashTimeoutSeconds: 42 })}`);
    const check = await e.run(["config", "check"]);
    expect(check.stderr).toBe("");
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/bashTimeoutSeconds = 42 /);
  });
});
