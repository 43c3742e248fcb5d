// MCP servers behind an OAuth login (R-MCP-1), through the built CLI against a real MCP server and
// a real authorization server built with the MCP SDK (test/tools/fixtures/mcp-oauth-server.mjs):
// a run before the login fails that server alone naming the command; `tern mcp login` discovers,
// registers, sends PKCE and the resource, and stores the tokens 0600; the tool then works; an
// expired token is refreshed; logout forgets it; and no token is in anything else tern writes.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliEnv, TERN_BIN } from "../support/cli.js";
import { startFixtureServer } from "../support/fixture-server.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";

const FIXTURE = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-oauth-server.mjs");
const e = useE2E();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
});

async function oauthServer(env: Record<string, string> = {}): Promise<{ url: string; log: string }> {
  const log = join(e.dirs.root, "oauth.log");
  const { child, port } = startFixtureServer(FIXTURE, {
    env: { FIXTURE_LOG: log, ...env },
    stderr: "inherit",
    name: "OAuth",
  });
  children.push(child);
  return { url: `http://127.0.0.1:${await port}/mcp`, log };
}

/** `tern mcp login <name>`, the browser played by following the printed URL. */
async function login(name: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [TERN_BIN, "mcp", "login", name], {
    cwd: e.dirs.workspace,
    env: cliEnv(e.dirs.home, { TERN_NO_BROWSER: "1", DISPLAY: ":99" }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
  });
  const followed = new Promise<void>((resolve, reject) => {
    child.stderr!.setEncoding("utf8").on("data", async (d: string) => {
      stderr += d;
      const url = /^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(stderr)?.[1];
      if (!url || !stderr.includes("Waiting for the redirect")) return;
      try {
        const approve = await fetch(url, { redirect: "manual" });
        const back = approve.headers.get("location");
        if (!back) throw new Error(`no redirect from ${url}: ${approve.status}`);
        const done = await fetch(back);
        expect(await done.text()).toContain("logged in");
        resolve();
      } catch (err) {
        reject(err);
      }
    });
  });
  const code = await new Promise<number>((resolve) => child.on("exit", (c) => resolve(c ?? -1)));
  await followed;
  return { code, stdout, stderr };
}

function everythingWrittenBesidesLogins(dir: string): string {
  let text = "";
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, name.name);
    if (name.isDirectory()) {
      if (name.name !== "mcp-auth") text += everythingWrittenBesidesLogins(path);
    } else if (!name.name.endsWith(".db")) text += readFileSync(path, "latin1");
  }
  return text;
}

describe("MCP servers behind an OAuth login", () => {
  it("needs login → login → call → refresh → logout, and no token anywhere else", async () => {
    const server = await oauthServer({ FIXTURE_TOKEN_TTL_S: "2" });
    writeUserConfig(e, { toolSets: [{ name: "docs", url: server.url }] });

    // Before the login: that server fails alone, naming the command; the turn goes on.
    e.provider.enqueue(openaiText("answered without docs"));
    const before = await ternRun(e, ["--yes"]);
    expect(before.code).toBe(0);
    expect(before.events).toContainEqual({
      type: "notice",
      text: "tool set 'docs' failed to start: needs a login: run 'tern mcp login docs'",
    });
    expect(before.end).toMatchObject({ stop_reason: "completed" });
    const listed = await e.run(["mcp", "list", "--json"]);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ name: "docs", state: "needs login", tools: 0 }]);

    const done = await login("docs");
    expect(done.stderr).toMatch(/^Open this URL to log in to 'docs':$/m);
    expect(done.stderr).not.toContain("opened in your browser");
    expect(done.code).toBe(0);
    expect(done.stdout).toBe("logged in to docs\n");
    const events = readFileSync(server.log, "utf8");
    expect(events).toMatch(/^register \S+ http:\/\/127\.0\.0\.1:\d+\/callback$/m);
    expect(events).toContain(`pkce=S256 resource=${server.url}`);
    const stored = join(e.dirs.home, "mcp-auth", "docs.json");
    expect(statSync(stored).mode & 0o777).toBe(0o600);
    expect(statSync(join(e.dirs.home, "mcp-auth")).mode & 0o777).toBe(0o700);
    const tokens = JSON.parse(readFileSync(stored, "utf8")).tokens;
    expect(tokens.access_token).toMatch(/^at-/);

    const connected = await e.run(["mcp", "list", "--json"]);
    expect(JSON.parse(connected.stdout)).toEqual([
      { name: "docs", transport: "http", state: "connected", tools: 1 },
    ]);

    // A protected call, once the token has expired: refreshed with the refresh token, then called.
    await new Promise((r) => setTimeout(r, 2200));
    e.provider.enqueue(openaiToolCalls([{ id: "c1", name: "docs__whoami", args: {} }]), openaiText("done"));
    const call = await ternRun(e, ["--yes"]);
    expect(call.code).toBe(0);
    expect(toolMessages(e.provider.requests.at(-1)!.body)[0].content).toMatch(/^you are \S+/);
    expect(readFileSync(server.log, "utf8")).toContain("refresh ");

    const secrets = [
      tokens.access_token,
      tokens.refresh_token,
      JSON.parse(readFileSync(stored, "utf8")).tokens.access_token,
    ];
    const written =
      everythingWrittenBesidesLogins(e.dirs.home) + before.stdout + before.stderr + call.stdout + call.stderr;
    for (const secret of secrets) expect(written).not.toContain(secret);

    const out = await e.run(["mcp", "logout", "docs"]);
    expect(out.stdout).toBe("logged out of docs\n");
    const after = await e.run(["mcp", "list", "--json"]);
    expect(JSON.parse(after.stdout)).toMatchObject([{ name: "docs", state: "needs login" }]);
  });

  it("a token that expires mid-session: the next call's 401 refreshes once and the call is retried", async () => {
    const server = await oauthServer({ FIXTURE_TOKEN_TTL_S: "5" });
    writeUserConfig(e, { toolSets: [{ name: "docs", url: server.url }] });
    expect((await login("docs")).code).toBe(0);
    const loggedIn = readFileSync(server.log, "utf8").split("\n").length - 1;
    // One run: a call with the fresh token, a pause past its life (a real `sleep`), a second call.
    e.provider.enqueue(
      openaiToolCalls([{ id: "w1", name: "docs__whoami", args: {} }]),
      openaiToolCalls([{ id: "s1", name: "bash", args: { command: "sleep 6" } }]),
      openaiToolCalls([{ id: "w2", name: "docs__whoami", args: {} }]),
      openaiText("both answered"),
    );
    const run = await ternRun(e, ["--yes"], "who am I, twice", { timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    const sent = Object.fromEntries(
      toolMessages(e.provider.requests.at(-1)!.body).map((m) => [m.id, m.content]),
    );
    expect(sent.w1).toMatch(/^you are \S+/);
    expect(sent.w2).toBe(sent.w1);
    const during = readFileSync(server.log, "utf8").split("\n").slice(loggedIn).filter(Boolean);
    // Calls worked with the first token; then one was rejected, refreshed once, and made again.
    const rejected = during.indexOf("rejected");
    expect(during.slice(0, rejected)).toContain("call");
    expect(during.slice(0, rejected).some((l) => l.startsWith("refresh"))).toBe(false);
    expect(during[rejected + 1]).toMatch(/^refresh /);
    expect(during.slice(rejected + 2)).toContain("call");
    expect(during.filter((l) => l.startsWith("refresh"))).toHaveLength(1);
    expect(run.end).toMatchObject({ stop_reason: "completed" });
  });

  it("a configured client secret is in nothing tern writes: config check, --json, the record, errors", async () => {
    const server = await oauthServer();
    const secret = "cs-VERY-SECRET-4711";
    writeUserConfig(e, {
      toolSets: [
        { name: "docs", url: server.url, oauth: { clientId: "pre-registered", clientSecret: secret } },
      ],
    });
    const check = await e.run(["config", "check"]);
    expect(check.stdout).toContain('"clientSecret":"(hidden)"');
    e.provider.enqueue(openaiText("without docs"));
    const run = await ternRun(e, ["--yes"]);
    expect(run.code).toBe(0);
    expect(run.events).toContainEqual({
      type: "notice",
      text: "tool set 'docs' failed to start: needs a login: run 'tern mcp login docs'",
    });
    const listed = await e.run(["mcp", "list", "--json"]);
    const written = [check.stdout, check.stderr, run.stdout, run.stderr, listed.stdout, listed.stderr].join(
      "\n",
    );
    // The person's own config.json holds it; nothing tern wrote does.
    const home = everythingWrittenBesidesLogins(e.dirs.home).replace(
      readFileSync(join(e.dirs.home, "config.json"), "utf8"),
      "",
    );
    expect(written + home).not.toContain(secret);
  });

  it(".mcp.json in Claude Code's shape: its oauth.callbackPort is the redirect's port", async () => {
    const server = await oauthServer();
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const free = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(free));
      });
    });
    writeUserConfig(e, { trustedWorkspaces: [realpathSync(e.dirs.workspace)] });
    writeFileSync(
      join(e.dirs.workspace, ".mcp.json"),
      JSON.stringify({
        mcpServers: { Docs: { type: "http", url: server.url, oauth: { callbackPort: port } } },
      }),
    );
    const done = await login("docs");
    expect(done.code).toBe(0);
    expect(readFileSync(server.log, "utf8")).toMatch(
      new RegExp(`^register \\S+ http://127\\.0\\.0\\.1:${port}/callback$`, "m"),
    );
    const listed = await e.run(["mcp", "list", "--json"]);
    expect(JSON.parse(listed.stdout)).toEqual([
      { name: "docs", transport: "http", state: "connected", tools: 1 },
    ]);
  });

  it("login names a server that is not configured, or a stdio one, in one line", async () => {
    writeUserConfig(e, { toolSets: [{ name: "local", command: "node", args: ["x.js"] }] });
    const missing = await e.run(["mcp", "login", "nosuch"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe("tern: no MCP server 'nosuch' (configured: local)");
    const stdio = await e.run(["mcp", "login", "local"]);
    expect(stdio.code).toBe(2);
    expect(stdio.stderr.trim()).toBe("tern: MCP server 'local' runs over stdio: only HTTP servers log in");
  });
});
