// External tool sets (R-EXT): MCP servers over stdio or Streamable HTTP, each tool listed as
// `<set>__<tool>`. Servers start in the background so the front end is usable at once; the
// engine waits for servers still starting (each at most its `startTimeoutSeconds`) before a
// model request. A server that fails to start is a notice naming its own reason, never a crash;
// `/mcp` shows the state of each and reconnects one.
import { listAllPrompts, type McpPrompt, promptText } from "./mcp-prompts.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ToolSetConfig } from "../../config/types.js";
import { makeMcpTool } from "./mcp-call.js";
import { type Connection, connectServer } from "./mcp-connect.js";
import { DEFAULT_MCP_LIMITS, type McpContentLimits } from "./mcp-content.js";
import { type ListedTool, listAllTools } from "./mcp-list.js";
import { exposedToolName } from "./mcp-names.js";
import { errorMessage } from "../results.js";
import type { Tool } from "../types.js";

const DEFAULT_START_SECONDS = 30;

export type ServerState = "starting" | "ready" | "failed" | "closed";

export interface ServerStatus {
  name: string;
  transport: "stdio" | "http";
  state: ServerState;
  /** Why it failed or closed. */
  reason?: string;
  /** The server's own tool names. */
  tools: string[];
}

export interface ToolSetsOptions {
  cwd: string;
  /** TERN_HOME: where HTTP servers' logins live (R-MCP-1). */
  home?: string;
  env?: NodeJS.ProcessEnv;
  /** Start failures and skipped tools, as they happen. */
  notify(text: string): void;
  limits?: Partial<McpContentLimits>;
}

interface Server {
  config: ToolSetConfig;
  state: ServerState;
  reason?: string;
  conn?: Connection;
  defs: ListedTool[];
  started: Promise<void>;
  /** Bumped by each (re)start, so a stale start cannot overwrite a newer one. */
  generation: number;
  /** Stops a start in progress (tern is closing): its child must not outlive tern. */
  abortStart?: () => void;
  /** A new session in progress after the server forgot the old one; shared by concurrent calls. */
  renewing?: Promise<unknown>;
}

/** Resolves once `work` has settled, or as soon as `signal` aborts. */
async function untilAborted(work: Promise<unknown>, signal?: AbortSignal): Promise<void> {
  if (!signal) return void (await work);
  if (signal.aborted) return;
  let onAbort = () => {};
  const aborted = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

const newServer = (config: ToolSetConfig): Server => ({
  config,
  state: "starting",
  defs: [],
  started: Promise.resolve(),
  generation: 0,
});

export class ToolSets {
  private readonly servers: Server[];
  private readonly limits: McpContentLimits;
  private closed = false;
  /** Changed tool lists being read again; the next request waits for them (see settled). */
  private readonly relists = new Set<Promise<void>>();

  constructor(
    configs: ToolSetConfig[],
    private readonly opts: ToolSetsOptions,
  ) {
    this.limits = { ...DEFAULT_MCP_LIMITS, ...opts.limits };
    this.servers = configs.map(newServer);
  }

  /** Starts every server in the background; returns at once. */
  start(): void {
    for (const server of this.servers) this.startServer(server);
  }

  /** More servers joining a running session (`/mcp approve`); started at once, a name already here is skipped. */
  add(configs: ToolSetConfig[]): string[] {
    const fresh = configs.filter((c) => !this.closed && !this.servers.some((s) => s.config.name === c.name));
    for (const server of fresh.map(newServer)) {
      this.servers.push(server);
      this.startServer(server);
    }
    return fresh.map((c) => c.name);
  }

  /** Names of the servers still starting. */
  starting(): string[] {
    return this.servers.filter((s) => s.state === "starting").map((s) => s.config.name);
  }

  /** Resolves when no server is starting any more (each start is bounded by its own timer), or on abort. */
  ready(signal?: AbortSignal): Promise<void> {
    return untilAborted(Promise.all(this.servers.map((s) => s.started)), signal);
  }

  /** The tools of every ready server, in config order, named so none collides with `reserved` or each other. */
  tools(reserved: Iterable<string> = []): Tool[] {
    const taken = new Set(reserved);
    const out: Tool[] = [];
    for (const server of this.servers) {
      if (server.state !== "ready") continue;
      for (const def of server.defs) {
        const name = exposedToolName(server.config.name, def.name, taken);
        taken.add(name);
        out.push(
          makeMcpTool({
            set: server.config,
            def,
            name,
            limits: this.limits,
            connection: () => server.conn ?? server.reason ?? server.state,
            renew: (stale) => this.renew(server, stale),
          }),
        );
      }
    }
    return out;
  }

  status(): ServerStatus[] {
    return this.servers.map((s) => ({
      name: s.config.name,
      transport: s.config.url !== undefined ? "http" : "stdio",
      state: s.state === "ready" && s.conn?.closedReason ? "closed" : s.state,
      reason: s.reason ?? s.conn?.closedReason ?? undefined,
      tools: s.state === "ready" ? s.defs.map((d) => d.name) : [],
    }));
  }

  /** Closes one server and starts it again; resolves once it is ready or failed. */
  async reconnect(name: string): Promise<ServerStatus> {
    const server = this.servers.find((s) => s.config.name === name);
    if (!server) throw new Error(`no tool set '${name}' (configured: ${this.names().join(", ") || "none"})`);
    const old = server.conn;
    server.conn = undefined;
    await old?.close();
    this.startServer(server);
    await server.started;
    return this.status().find((s) => s.name === name)!;
  }

  /** A fresh session for calls whose server forgot theirs; one restart however many calls noticed. */
  private async renew(server: Server, stale: Connection): Promise<Connection | string> {
    if (this.closed) return "tern is closing";
    if (server.conn === stale) {
      stale.sessionReplaced = true;
      server.renewing ??= this.reconnect(server.config.name).finally(() => {
        server.renewing = undefined;
      });
    }
    await server.renewing;
    return server.conn ?? server.reason ?? server.state;
  }

  /** The prompts of every ready server (R-WF-2); a server that fails to list them is left out. */
  async prompts(): Promise<McpPrompt[]> {
    const lists = await Promise.all(
      this.servers.map((s) =>
        s.state === "ready" && s.conn
          ? listAllPrompts(s.conn.client, s.config.name, s.config.timeoutSeconds * 1000).catch(() => [])
          : [],
      ),
    );
    return lists.flat();
  }

  /** One prompt's text, its arguments by position. */
  async prompt(prompt: McpPrompt, words: readonly string[]): Promise<string> {
    const server = this.servers.find((s) => s.config.name === prompt.set);
    if (!server?.conn) throw new Error(`tool set '${prompt.set}' is not running`);
    return promptText(server.conn.client, prompt, words, server.config.timeoutSeconds * 1000);
  }

  names(): string[] {
    return this.servers.map((s) => s.config.name);
  }

  /** `/mcp login <name>` (R-MCP-1): the login flow, then the server again with its new tokens. */
  async login(name: string, print: (line: string) => void, signal?: AbortSignal): Promise<ServerStatus> {
    const server = this.servers.find((s) => s.config.name === name);
    if (!server) throw new Error(`no tool set '${name}' (configured: ${this.names().join(", ") || "none"})`);
    if (!this.opts.home) throw new Error("logins need TERN_HOME");
    const { loginServer } = await import("./auth/index.js");
    await loginServer({ home: this.opts.home, set: server.config, print, env: this.opts.env, signal });
    return this.reconnect(name);
  }

  /** `/mcp logout <name>`: forgets its tokens and closes it (a reconnect then needs a login). */
  async logout(name: string): Promise<boolean> {
    const server = this.servers.find((s) => s.config.name === name);
    if (!server) throw new Error(`no tool set '${name}' (configured: ${this.names().join(", ") || "none"})`);
    const { removeLogin } = await import("./auth/index.js");
    const had = this.opts.home ? removeLogin(this.opts.home, name) : false;
    await this.reconnect(name);
    return had;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.servers.map(async (s) => {
        s.generation++;
        s.abortStart?.();
        await s.started;
        const conn = s.conn;
        s.conn = undefined;
        if (s.state !== "failed") s.state = "closed";
        await conn?.close();
      }),
    );
  }

  /** A server that announces a changed tool list is read again; the new list joins at the next request. */
  private followListChanges(server: Server, conn: Connection, generation: number, timeoutMs: number): void {
    conn.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      const relist = this.relist(server, conn, generation, timeoutMs);
      this.relists.add(relist);
      return relist.finally(() => this.relists.delete(relist));
    });
  }

  private async relist(
    server: Server,
    conn: Connection,
    generation: number,
    timeoutMs: number,
  ): Promise<void> {
    try {
      const listed = await listAllTools(conn.client, server.config.name, timeoutMs);
      if (generation !== server.generation || server.conn !== conn) return;
      server.defs = listed.tools;
      for (const w of listed.warnings) this.opts.notify(w);
    } catch (err) {
      this.opts.notify(
        `tool set '${server.config.name}': could not read its changed tool list: ${errorMessage(err)}`,
      );
    }
  }

  /**
   * Resolves once the tool lists being read again are read (or on abort). A server announces a
   * change before it answers the call that made it, so waiting here before the next model
   * request offers a tool the moment the call that added it has returned.
   */
  async settled(signal?: AbortSignal): Promise<void> {
    if (this.relists.size > 0) await untilAborted(Promise.all(this.relists), signal);
  }

  private startServer(server: Server): void {
    const generation = ++server.generation;
    server.state = "starting";
    server.reason = undefined;
    server.defs = [];
    const set = server.config;
    const seconds = set.startTimeoutSeconds ?? DEFAULT_START_SECONDS;
    server.started = (async () => {
      const deadline = new AbortController();
      server.abortStart = () => deadline.abort();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        deadline.abort();
      }, seconds * 1000);
      let conn: Connection | undefined;
      try {
        conn = await connectServer(
          set,
          this.opts.cwd,
          this.opts.env ?? process.env,
          seconds * 1000,
          deadline.signal,
          this.opts.home,
        );
        const listed = await listAllTools(conn.client, set.name, seconds * 1000, deadline.signal);
        if (generation !== server.generation || this.closed) {
          await conn.close();
          return;
        }
        server.conn = conn;
        server.defs = listed.tools;
        server.state = "ready";
        for (const w of listed.warnings) this.opts.notify(w);
        this.followListChanges(server, conn, generation, seconds * 1000);
      } catch (err) {
        await conn?.close();
        if (generation !== server.generation) return;
        server.state = "failed";
        server.reason = timedOut
          ? `it did not start within ${seconds}s (startTimeoutSeconds)`
          : errorMessage(err);
        if (!this.closed) this.opts.notify(`tool set '${set.name}' failed to start: ${server.reason}`);
      } finally {
        clearTimeout(timer);
        if (generation === server.generation) server.abortStart = undefined;
      }
    })();
  }
}
