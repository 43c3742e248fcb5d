// External tool sets (R-EXT): MCP servers over stdio or Streamable HTTP, each tool listed as
// `<set>__<tool>`. Servers start in the background so the front end is usable at once; the
// engine waits for servers still starting (each at most its `startTimeoutSeconds`) before a
// model request. A server that fails to start is a notice naming its own reason, never a crash;
// `/mcp` shows the state of each and reconnects one.
import { listAllPrompts, type McpPrompt, promptText } from "./mcp-prompts.js";
import type { ToolSetConfig } from "../../config/types.js";
import { makeMcpTool } from "./mcp-call.js";
import { type Connection, connectServer } from "./mcp-connect.js";
import { DEFAULT_MCP_LIMITS, type McpContentLimits } from "./mcp-content.js";
import { listAllTools } from "./mcp-list.js";
import { exposedToolName } from "./mcp-names.js";
import { type ResourceServer, resourceTools } from "./mcp-resources.js";
import { errorMessage } from "../results.js";
import { untilAborted } from "./until-aborted.js";
import { ListChanges } from "./mcp-list-changes.js";
import { answerElicitations, type Elicit } from "./mcp-elicit.js";
import type { Tool } from "../types.js";
import { McpToolSearch } from "./mcp-tool-search.js";
import { newServer, type Server, type ServerState, type ServerStatus } from "./mcp-server-state.js";

export type { ServerState, ServerStatus };

const DEFAULT_START_SECONDS = 30;

export interface ToolSetsOptions {
  cwd: string;
  /** TERN_HOME: where HTTP servers' logins live (R-MCP-1). */
  home?: string;
  env?: NodeJS.ProcessEnv;
  /** Start failures and skipped tools, as they happen. */
  notify(text: string): void;
  /** A server's form for the person (R-MCP-3); absent where nobody can answer (declined). */
  elicit?: Elicit;
  limits?: Partial<McpContentLimits>;
  /** More tools than this are offered through `search_mcp_tools` (0 or absent: always all). */
  searchThreshold?: number;
  /** A resumed session's tool names: the tools its searches found stay offered. */
  searchFound?: string[];
}

export class ToolSets {
  private readonly servers: Server[];
  readonly limits: McpContentLimits;
  private readonly search: McpToolSearch;
  private closed = false;
  /** Changed tool lists being read again; the next request waits for them (see settled). */
  private readonly changes = new ListChanges();

  constructor(
    configs: ToolSetConfig[],
    readonly opts: ToolSetsOptions,
  ) {
    this.limits = { ...DEFAULT_MCP_LIMITS, ...opts.limits };
    this.search = new McpToolSearch(opts.searchThreshold ?? 0, opts.searchFound);
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

  /** Ready servers that declare resources (R-MCP-2). */
  resourceServers(): ResourceServer[] {
    return this.servers.flatMap((s) =>
      s.state === "ready" && s.conn && s.conn.client.getServerCapabilities()?.resources
        ? [{ name: s.config.name, client: s.conn.client, timeoutMs: s.config.timeoutSeconds * 1000 }]
        : [],
    );
  }

  /**
   * The tools of every ready server, in config order, named so none collides with `reserved` or
   * each other; and the two resource tools while a ready server declares resources. Beyond the
   * search threshold, `search_mcp_tools` and the tools it found instead (mcp-tool-search.ts).
   */
  tools(reserved: Iterable<string> = []): Tool[] {
    const taken = new Set(reserved);
    const resources = this.resourceServers().length > 0 ? resourceTools(() => this.resourceServers()) : [];
    const out = resources.filter((t) => !taken.has(t.name));
    for (const t of out) taken.add(t.name);
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
    return this.search.offer(out);
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

  /** One server's configuration, or an error naming the configured ones. */
  config(name: string): ToolSetConfig {
    const server = this.servers.find((s) => s.config.name === name);
    if (!server) throw new Error(`no tool set '${name}' (configured: ${this.names().join(", ") || "none"})`);
    return server.config;
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

  /** Resolves once changed tool lists being read again are read (or on abort). */
  settled(signal?: AbortSignal): Promise<void> {
    return this.changes.settled(signal);
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
        answerElicitations(conn.client, set.name, this.opts.elicit, this.opts.notify);
        const live = conn;
        this.changes.follow(conn.client, () => this.relist(server, live, generation, seconds * 1000));
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
