// The OS sandbox around bash (R-SBX), through the built CLI against the fake provider. The temp
// folder the sandbox leaves writable is a private TMPDIR inside the test's root, and HOME is a
// folder beside it, so "a write to $HOME fails" is checked without going near the real home.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { VTerm } from "../support/vterm.js";
import { recordLines, ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";

const bwrapWorks =
  spawnSync("bwrap", ["--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "--", "true"]).status === 0;
if (!bwrapWorks) console.warn("sandbox tests skipped: bubblewrap (bwrap) cannot run on this machine");

const e = useE2E();
const ws = (name: string) => join(e.dirs.workspace, name);

/** TMPDIR and HOME of the tern process: both inside the test's root, HOME outside TMPDIR. */
function sandboxEnv(): Record<string, string> {
  const tmp = join(e.dirs.root, "tmp");
  const home = join(e.dirs.root, "user-home");
  mkdirSync(tmp, { recursive: true });
  mkdirSync(home, { recursive: true });
  return { TMPDIR: tmp, HOME: home };
}

/** `tern --plain` with the workspace-write sandbox, against the fake provider. */
function sandboxedLineMode(env: Record<string, string>): VTerm {
  const args = ["--plain", "--model", "local/mock-1", "--base-url", e.provider.baseUrl];
  return new VTerm({
    home: e.dirs.home,
    cwd: e.dirs.workspace,
    args: [...args, "--sandbox", "workspace-write"],
    env,
  });
}

async function runBash(command: string, args: string[] = [], env: Record<string, string> = sandboxEnv()) {
  e.provider.enqueue(openaiToolCalls([{ id: "b1", name: "bash", args: { command } }]), openaiText("done"));
  const run = await ternRun(e, args, "do it", { env });
  const sent = e.provider.requests[1] ? toolMessages(e.provider.requests[1].body) : [];
  return { run, output: sent[0]?.content ?? "" };
}

describe.skipIf(!bwrapWorks)("bash in the sandbox", () => {
  it("workspace-write: a write in the workspace works without asking (ask mode, no --yes), and the record says sandboxed", async () => {
    const { run, output } = await runBash("echo made > inside.txt && echo ok", [
      "--sandbox",
      "workspace-write",
    ]);
    expect(run.code).toBe(0);
    expect(output).toBe("ok");
    expect(readFileSync(ws("inside.txt"), "utf8")).toBe("made\n");
    expect(run.events.filter((ev) => ev.type === "approval")).toEqual([]);
    const result = recordLines(e).find((l) => l.type === "tool_result");
    expect(result).toMatchObject({ outcome: "ok", sandboxed: true });
  });

  it("workspace-write: writes to $HOME, to .git/config and outside the writable roots fail, saying why", async () => {
    execFileSync("git", ["init", "-q"], { cwd: e.dirs.workspace });
    const before = readFileSync(ws(".git/config"), "utf8");
    const env = sandboxEnv();
    const outside = join(e.dirs.root, "elsewhere");
    mkdirSync(outside);
    const { run, output } = await runBash(
      `echo x > "$HOME/pwned"; echo y >> .git/config; echo z > ${outside}/f; echo w > /etc/tern-pwned; exit 1`,
      ["--sandbox", "workspace-write"],
      env,
    );
    expect(run.code).toBe(0);
    expect(existsSync(join(env.HOME, "pwned"))).toBe(false);
    expect(readFileSync(ws(".git/config"), "utf8")).toBe(before);
    expect(existsSync(join(outside, "f"))).toBe(false);
    expect(existsSync("/etc/tern-pwned")).toBe(false);
    expect(output).toMatch(/Read-only file system/);
    expect(output).toMatch(/workspace-write sandbox.*may be the sandbox's doing/);
  });

  it("a repository nested in the workspace keeps its .git/ read-only too", async () => {
    mkdirSync(ws("vendor/lib"), { recursive: true });
    execFileSync("git", ["init", "-q"], { cwd: ws("vendor/lib") });
    const before = readFileSync(ws("vendor/lib/.git/config"), "utf8");
    const { output } = await runBash(
      "git -C vendor/lib config core.fsmonitor 'touch /tmp/pwned'; echo ok > vendor/lib/file.txt",
      ["--sandbox", "workspace-write"],
    );
    expect(readFileSync(ws("vendor/lib/.git/config"), "utf8")).toBe(before);
    expect(readFileSync(ws("vendor/lib/file.txt"), "utf8")).toBe("ok\n");
    expect(output).toMatch(/could not lock config file .*Read-only file system/);
  });

  it("writableRoots are writable; read-only mode leaves only the temp folder writable", async () => {
    const extra = join(e.dirs.root, "extra");
    mkdirSync(extra);
    writeUserConfig(e, { sandbox: { writableRoots: [extra] } });
    const first = await runBash(`echo a > ${extra}/ok && echo done`, ["--sandbox", "workspace-write"]);
    expect(first.output).toBe("done");
    expect(readFileSync(join(extra, "ok"), "utf8")).toBe("a\n");

    e.provider.requests.length = 0;
    const env = sandboxEnv();
    const second = await runBash(
      `echo t > "$TMPDIR/t" && echo tmp-ok; echo w > ws.txt`,
      ["--sandbox", "read-only"],
      env,
    );
    expect(second.output).toMatch(/tmp-ok/);
    expect(readFileSync(join(env.TMPDIR, "t"), "utf8")).toBe("t\n");
    expect(existsSync(ws("ws.txt"))).toBe(false);
  });

  it("no network unless sandbox.network: a TCP connect to the fake provider fails, then works", async () => {
    const port = new URL(e.provider.baseUrl).port;
    const connect = `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`;
    const off = await runBash(connect, ["--sandbox", "workspace-write"]);
    expect(off.output).not.toMatch(/connected/);
    expect(off.output).toMatch(/without network access/);

    e.provider.requests.length = 0;
    writeUserConfig(e, { sandbox: { network: true } });
    const on = await runBash(connect, ["--sandbox", "workspace-write"]);
    expect(on.output).toMatch(/connected/);
  });

  it("no network also means no Unix socket outside (a session bus, docker.sock): connect fails, then works with network", async () => {
    // A service listening on a socket file outside the workspace, as the D-Bus session bus does.
    const socket = join(e.dirs.root, "service.sock");
    const received: string[] = [];
    const server = createServer((c) => c.on("data", (d) => received.push(String(d))).end("pong"));
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    const connect =
      `node -e 'const c = require("net").connect(${JSON.stringify(socket)}, () => c.write("escaped"));` +
      ` c.on("data", (d) => { console.log("reply " + d); process.exit(0); });` +
      ` c.on("error", (err) => { console.log("refused " + err.message); process.exit(1); })'`;
    try {
      const off = await runBash(connect, ["--sandbox", "workspace-write"]);
      expect(off.output).toMatch(/refused connect EACCES/);
      expect(off.output).toMatch(/without network access .*Unix sockets outside are refused too/);
      expect(received).toEqual([]);

      e.provider.requests.length = 0;
      writeUserConfig(e, { sandbox: { network: true } });
      const on = await runBash(connect, ["--sandbox", "workspace-write"]);
      expect(on.output).toMatch(/reply pong/);
      expect(received).toEqual(["escaped"]);
    } finally {
      server.close();
    }
  });

  it("the sandboxed command gets the scrubbed environment: no provider key", async () => {
    const { run, output } = await runBash("env", ["--sandbox", "workspace-write"], {
      ...sandboxEnv(),
      MY_SERVICE_TOKEN: "tok-should-not-leak-123",
    });
    expect(run.code).toBe(0);
    expect(output).toMatch(/^PATH=/m);
    expect(output).not.toMatch(/OPENAI_API_KEY|sk-test-key|MY_SERVICE_TOKEN|tok-should-not-leak/);
  });

  it("deny rules still deny, and --yes never turns the sandbox off", async () => {
    writeUserConfig(e, { permissions: { deny: ["bash(rm *)"] } });
    writeFileSync(ws("keep.txt"), "k\n");
    const denied = await runBash("rm keep.txt", ["--sandbox", "workspace-write", "--yes"]);
    expect(denied.run.code).toBe(0);
    expect(readFileSync(ws("keep.txt"), "utf8")).toBe("k\n");
    expect(recordLines(e).find((l) => l.type === "tool_result")).toMatchObject({ outcome: "denied" });

    e.provider.requests.length = 0;
    const env = sandboxEnv();
    const yes = await runBash(`echo x > "$HOME/escaped"`, ["--sandbox", "workspace-write", "--yes"], env);
    expect(yes.run.code).toBe(0);
    expect(existsSync(join(env.HOME, "escaped"))).toBe(false);
  });

  it("the line mode offers to re-run a sandbox failure outside, as an approval naming the command", async () => {
    const env = sandboxEnv();
    e.provider.enqueue(
      openaiToolCalls([{ id: "b1", name: "bash", args: { command: `echo out > "$HOME/outside.txt"` } }]),
      openaiText("done"),
    );
    const vt = sandboxedLineMode(env);
    try {
      await vt.waitFor(/^› $/m, 15_000);
      await vt.type("write home");
      await vt.press("enter");
      await vt.waitFor(/OUTSIDE the sandbox/);
      expect(vt.text()).toMatch(/outside\.txt/);
      await vt.type("y");
      await vt.press("enter");
      await vt.waitFor(/— turn 1 · completed/);
    } finally {
      await vt.close();
    }
    expect(readFileSync(join(env.HOME, "outside.txt"), "utf8")).toBe("out\n");
    const result = recordLines(e).find((l) => l.type === "tool_result");
    expect(result).toMatchObject({ outcome: "ok", sandboxed: false });
    expect(toolMessages(e.provider.requests[1].body)[0].content).toMatch(
      /outside the sandbox with the user's approval/,
    );
  });

  it("the offer's always covers the program and first argument, never all of bash, and is not asked again", async () => {
    const env = sandboxEnv();
    const home = env.HOME;
    e.provider.enqueue(
      openaiToolCalls([{ id: "b1", name: "bash", args: { command: `mkdir -p ${home}/one` } }]),
      openaiToolCalls([{ id: "b2", name: "bash", args: { command: `mkdir -p ${home}/two` } }]),
      openaiText("done"),
    );
    const vt = sandboxedLineMode(env);
    try {
      await vt.waitFor(/^› $/m, 15_000);
      await vt.type("make them");
      await vt.press("enter");
      await vt.waitFor(/OUTSIDE the sandbox/);
      const offer = vt.text();
      expect(offer).toMatch(
        /\[a\]lways covers: bash commands starting with `mkdir -p` for this session, outside the sandbox/,
      );
      expect(offer).not.toMatch(/every bash command/);
      await vt.type("a");
      await vt.press("enter");
      await vt.waitFor(/— turn 1 · completed/);
      expect(vt.text().match(/OUTSIDE the sandbox/g)).toHaveLength(1);
    } finally {
      await vt.close();
    }
    expect(existsSync(join(home, "one"))).toBe(true);
    expect(existsSync(join(home, "two"))).toBe(true);
  });
});

describe("asking for a sandbox that cannot be had", () => {
  it("--sandbox bogus: exactly one line on stderr, exit 2, nothing sent", async () => {
    const run = await ternRun(e, ["--sandbox", "bogus"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/--sandbox: must be off, read-only, workspace-write, got 'bogus'/);
    expect(e.provider.requests).toHaveLength(0);
  });

  it("a missing mechanism is one line naming how to install it, exit 2, and config check reports it", async () => {
    const emptyPath = join(e.dirs.root, "empty-bin");
    mkdirSync(emptyPath);
    const run = await ternRun(e, ["--sandbox", "workspace-write"], "do it", { env: { PATH: emptyPath } });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/apt-get install bubblewrap/);
    expect(e.provider.requests).toHaveLength(0);

    const check = await e.run(["config", "check"], { PATH: emptyPath });
    expect(check.stdout).toMatch(/sandbox: not available: bubblewrap \(bwrap\) is not installed/);
    if (bwrapWorks)
      expect((await e.run(["config", "check"])).stdout).toMatch(/sandbox: available \(bubblewrap/);
  });
});
