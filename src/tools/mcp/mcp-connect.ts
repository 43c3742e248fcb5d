// Connecting to one MCP server (R-EXT): stdio (`command`, `args`, `env`) or Streamable HTTP
// (`url`, `headers`), `${VAR}` expanded from tern's environment. A server that fails to start is
// reported by its own reason (the telling line of its stderr), and closing is prompt: the stdio
// child gets SIGTERM soon after its input closes and SIGKILL after that, whatever signal ends tern.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ToolSetConfig } from "../../config/types.js";
import { isOversizeError, installLinearReader } from "./mcp-read-buffer.js";
import { clip, errorMessage } from "../results.js";
import { sessionAuth } from "./auth/session-auth.js";

const STDERR_KEEP = 8000;
const TERM_AFTER_MS = 300;
const KILL_AFTER_MS = 1500;
const TERMINATE_WAIT_MS = 1000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export interface Connection {
  client: Client;
  /** Set once the server is gone, so later calls fail fast with the cause. */
  closedReason: string | null;
  /**
   * Set when the server forgot this session (HTTP 404) and a new one replaced it: requests
   * still in flight on it went to the forgotten session, so they never ran.
   */
  sessionReplaced?: boolean;
  /** The stdio child's recent stderr (never sent to the model: it may hold anything). */
  stderr(): string;
  /** Once closed: the reason, after the server's last stderr words arrived (at most ~1 s). */
  closedWhy(): Promise<string>;
  close(): Promise<void>;
}

/** Children still running, so an exit by any path can still kill them (see killLeftovers). */
const livePids = new Set<number>();
let exitHookInstalled = false;

/**
 * SIGTERM / SIGHUP: the servers get SIGTERM at once, whatever else handles the signal. This
 * listener runs first and then removes itself, so the other listeners (Ink's exit hook, the
 * front end's cancel) act exactly as they would without it. When there are none, the default
 * (tern ends) is raised again once the children had a moment to leave; one that ignores
 * SIGTERM gets SIGKILL.
 */
function onEndSignal(sig: NodeJS.Signals): void {
  for (const pid of livePids) sendSignal(pid, "SIGTERM");
  uninstallSignalHooks();
  if (process.listenerCount(sig) > 0) return;
  const deadline = performance.now() + 1000;
  const wait = setInterval(() => {
    const alive = [...livePids].filter((pid) => isAlive(pid));
    if (alive.length > 0 && performance.now() < deadline) return;
    clearInterval(wait);
    killLeftovers();
    process.kill(process.pid, sig);
  }, 25);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function installExitHooks(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", killLeftovers);
  process.prependListener("SIGTERM", onEndSignal);
  process.prependListener("SIGHUP", onEndSignal);
}

function uninstallSignalHooks(): void {
  process.off("SIGTERM", onEndSignal);
  process.off("SIGHUP", onEndSignal);
}

function killLeftovers(): void {
  for (const pid of livePids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/** `${VAR}` and `${VAR:-default}` from tern's environment; an unset variable without default is an error. */
export function expandVars(value: string, env: NodeJS.ProcessEnv, where: string): string {
  return value.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (_, name: string, fallback?: string) => {
      const v = env[name];
      if (v !== undefined && v !== "") return v;
      if (fallback !== undefined) return fallback;
      throw new Error(`${where} names \${${name}}, which is not set in tern's environment`);
    },
  );
}

function expandAll(rec: Record<string, string> | undefined, env: NodeJS.ProcessEnv, key: string) {
  return Object.fromEntries(
    Object.entries(rec ?? {}).map(([k, v]) => [k, expandVars(v, env, `${key}.${k}`)]),
  );
}

/**
 * The line of a failed server's stderr that says why: an `…Error:` / `…Exception` line first
 * (Node's `Error: Cannot find module …`, Python's last traceback line), then a line naming a
 * common cause, else the last line.
 */
export function tellingLine(stderr: string): string | undefined {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const errorLine = lines.find(
    (l) => /^[\w.$]*(Error|Exception)\b.*:/.test(l) || /^(error|fatal|panic)\b/i.test(l),
  );
  const causeLine = lines.find((l) =>
    /cannot find|not found|no such file|permission denied|EADDRINUSE|ENOENT|EACCES|not set|required/i.test(l),
  );
  const line = errorLine ?? causeLine ?? lines.at(-1);
  return line === undefined ? undefined : clip(line, 300);
}

/**
 * Why a running server went away: its own error line when it left one (`Error: …`, a Python
 * exception), never any other stderr line, which may hold anything (tokens in a debug line).
 */
export function exitReason(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const told = lines.findLast((l) => /^[\w.$]*(Error|Exception)\b.*:/.test(l) || /^(fatal|panic)\b/i.test(l));
  return told ? `the server exited: ${clip(told, 300)}` : "the server exited";
}

/** Why a start failed, in one line: the server's own words when it left any. */
export function startFailure(err: unknown, stderr: string): string {
  const told = tellingLine(stderr);
  let msg = errorMessage(err);
  const cause = (err as { cause?: unknown } | null)?.cause;
  if (cause instanceof Error && !msg.includes(cause.message)) msg = `${msg} (${errorMessage(cause)})`;
  if (told) return /connection closed/i.test(msg) ? told : `${told} (${msg})`;
  return /connection closed/i.test(msg) ? "the server exited before it answered" : msg;
}

function stdioTransport(set: ToolSetConfig, cwd: string, env: NodeJS.ProcessEnv) {
  const transport = new StdioClientTransport({
    command: set.command!,
    args: set.args,
    env: { ...getDefaultEnvironment(), ...expandAll(set.env, env, "env") },
    cwd,
    // The server's stderr must not scribble over the terminal UI; it is kept for start errors.
    stderr: "pipe",
  });
  installLinearReader(transport);
  return transport;
}

export async function connectServer(
  set: ToolSetConfig,
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  signal?: AbortSignal,
  home?: string,
): Promise<Connection> {
  let stderr = "";
  let stderrEnded: Promise<void> = Promise.resolve();
  let pid: number | null = null;
  let transport: StdioClientTransport | StreamableHTTPClientTransport;
  let http: StreamableHTTPClientTransport | undefined;
  if (set.url !== undefined) {
    const headers = expandAll(set.headers, env, "headers");
    const authProvider = home ? await sessionAuth(home, { ...set, url: set.url }, headers) : undefined;
    http = new StreamableHTTPClientTransport(new URL(set.url), { requestInit: { headers }, authProvider });
    transport = http;
  } else {
    const stdio = stdioTransport(set, cwd, env);
    const stream = stdio.stderr;
    stream?.on("data", (b: Buffer) => {
      stderr = (stderr + b.toString("utf8")).slice(-STDERR_KEEP);
    });
    stderrEnded = new Promise((resolve) => {
      stream?.once("end", () => resolve());
      stream?.once("close", () => resolve());
    });
    transport = stdio;
  }
  // Forms (elicitation) are answered by the person where there is one, declined where not (R-MCP-3).
  const client = new Client({ name: "tern", version: "0.1.0" }, { capabilities: { elicitation: {} } });
  const conn: Connection = {
    client,
    closedReason: null,
    stderr: () => stderr,
    closedWhy: async () => {
      await Promise.race([stderrEnded, new Promise((r) => setTimeout(r, 1000).unref())]);
      return conn.closedReason ?? "the server exited";
    },
    close: async () => {
      // A stateful HTTP server keeps a session until told (DELETE); one that does not answer soon is left.
      if (http?.sessionId && !conn.closedReason)
        await Promise.race([http.terminateSession().catch(() => {}), delay(TERMINATE_WAIT_MS)]);
      const target = pid;
      // The SDK waits 2 s for the child to leave after closing its input, then 2 s more after
      // SIGTERM, and a failed connect has already started that wait on its own; tern's exit
      // should not wait that long, so the signals come sooner.
      const term = setTimeout(() => target && sendSignal(target, "SIGTERM"), TERM_AFTER_MS);
      try {
        await client.close();
      } catch {
        // Closing is best effort; the child is ended below either way.
      } finally {
        clearTimeout(term);
      }
      if (target) {
        await ensureGone(target);
        livePids.delete(target);
      }
    },
  };
  // A message too large to read closes the connection: that is the reason, not "the server exited".
  client.onerror = (err) => {
    if (isOversizeError(err))
      conn.closedReason ??= `${err.message}; tern closed the connection (/mcp reconnects it)`;
  };
  client.onclose = () => {
    if (pid) livePids.delete(pid);
    if (conn.closedReason !== null) return;
    conn.closedReason = "the server exited";
    // Its last words may still be on their way through the stderr pipe.
    void stderrEnded.then(() => {
      if (conn.closedReason === "the server exited") conn.closedReason = exitReason(stderr);
    });
  };
  // The child is spawned synchronously by connect(): track it from the start, so a signal
  // during a slow start still ends it.
  const connecting = client.connect(transport, { timeout: timeoutMs, signal });
  if (transport instanceof StdioClientTransport && transport.pid) {
    pid = transport.pid;
    livePids.add(pid);
    installExitHooks();
  }
  try {
    await connecting;
  } catch (err) {
    await Promise.race([stderrEnded, new Promise((r) => setTimeout(r, 500).unref())]);
    await conn.close();
    throw new Error(loginFailure(err, set) ?? startFailure(err, stderr));
  }
  return conn;
}

/** A server that needs a person's login says so, naming the command that does it (R-MCP-1). */
function loginFailure(err: unknown, set: ToolSetConfig): string | undefined {
  const name = (e: unknown) => (e instanceof Error ? e.name : "");
  const cause = (err as { cause?: unknown } | null)?.cause;
  if ([name(err), name(cause)].some((n) => n === "NeedsLogin" || n === "UnauthorizedError"))
    return `needs a login: run 'tern mcp login ${set.name}'`;
  return undefined;
}

/** SIGTERM, then SIGKILL for a child still there after KILL_AFTER_MS. */
async function ensureGone(pid: number): Promise<void> {
  if (!isAlive(pid)) return;
  sendSignal(pid, "SIGTERM");
  const deadline = performance.now() + KILL_AFTER_MS;
  while (isAlive(pid) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  if (isAlive(pid)) sendSignal(pid, "SIGKILL");
}

function sendSignal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
}
