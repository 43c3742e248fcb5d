// A session's language servers (R-LSP-1): one per (server, root), started when a tool first reads
// or writes a matching file, warm until the session ends. A crash restarts the server on next use,
// at most 3 times; then, like a server that never answered `initialize`, it is unavailable and
// said so once. Knows no turn: the engine calls it and decides what reaches whom.
import { readFileSync, realpathSync } from "node:fs";
import { relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Config } from "../config/types.js";
import { LspClient } from "./client.js";
import { configuredServers, languageId, rootFor, type ServerSpec, serverFor } from "./servers.js";
import { isInside, resolveServerProgram } from "./programs.js";

export const MAX_RESTARTS = 3;

export type ServerState =
  | "starting"
  | "running"
  | "crashed"
  | "unavailable"
  | "not run"
  | "missing"
  | "stopped";

export interface ServerEntry {
  spec: ServerSpec;
  root: string;
  state: ServerState;
  client?: LspClient;
  starting?: Promise<LspClient | undefined>;
  restarts: number;
  /** Why it is not running, in one line. */
  reason?: string;
  /** The reason went out once already (R-LSP-1: unavailable is reported once). */
  reported: boolean;
  /** Documents opened in it: uri → the text it has. */
  docs: Map<string, string>;
  /** Errors the last check of each document found (`errorKey`s), to tell an edit's new ones. */
  knownErrors: Map<string, Set<string>>;
}

export interface ManagerOptions {
  cwd: string;
  config: Config;
  env: NodeJS.ProcessEnv;
  /**
   * How long an edit waits for diagnostics when `lsp.diagnosticsTimeoutMs` is not set: config's
   * default, handed in (an import of config/defaults.js here would split the CLI's start chunk).
   */
  defaultTimeoutMs: number;
  /** A line for the person (a notice), never for the model. */
  notify?(text: string): void;
}

export class LspManager {
  readonly cwd: string;
  readonly servers: ServerSpec[];
  readonly warnings: string[];
  readonly timeoutMs: number;
  private readonly entries = new Map<string, ServerEntry>();
  private readonly trusted: boolean;
  private closed = false;
  /** Every client made, until it is stopped: what `close` and tern's exit end. */
  private readonly clients = new Set<LspClient>();
  private readonly killAll = () => {
    for (const c of this.clients) c.killGroup();
  };

  constructor(private readonly opts: ManagerOptions) {
    this.cwd = resolve(opts.cwd);
    const { servers, warnings } = configuredServers(opts.config);
    this.servers = servers;
    this.warnings = warnings;
    const lsp = opts.config.lsp;
    this.timeoutMs =
      (lsp && typeof lsp.diagnosticsTimeoutMs === "number" && lsp.diagnosticsTimeoutMs) ||
      opts.defaultTimeoutMs;
    const real = (p: string) => {
      try {
        return realpathSync(p);
      } catch {
        return resolve(p);
      }
    };
    this.trusted = opts.config.trustedWorkspaces.some((w) => real(w) === real(this.cwd));
    // No server outlives tern, however it exits (§10): the groups are killed on the way out.
    process.on("exit", this.killAll);
  }

  /** The entry serving `path`, made (not started) on first ask; undefined when no server claims it. */
  entryFor(path: string): ServerEntry | undefined {
    if (this.closed) return undefined;
    const spec = serverFor(this.servers, path);
    if (!spec) return undefined;
    const root = rootFor(spec, path, this.cwd);
    const key = `${spec.name}\0${root}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = {
        spec,
        root,
        state: "stopped",
        restarts: 0,
        reported: false,
        docs: new Map(),
        knownErrors: new Map(),
      };
      this.entries.set(key, entry);
    }
    return entry;
  }

  list(): ServerEntry[] {
    return [...this.entries.values()];
  }

  /** The running client of an entry, started if need be; undefined when it cannot run. */
  client(entry: ServerEntry): Promise<LspClient | undefined> {
    if (entry.client && entry.state === "running") return Promise.resolve(entry.client);
    if (entry.starting) return entry.starting;
    if (this.closed || ["unavailable", "not run", "missing"].includes(entry.state))
      return Promise.resolve(undefined);
    entry.starting = this.start(entry).finally(() => {
      entry.starting = undefined;
    });
    return entry.starting;
  }

  private async start(entry: ServerEntry): Promise<LspClient | undefined> {
    const lookup = { cwd: this.cwd, root: entry.root, env: this.opts.env, trusted: this.trusted };
    let command: string[] | undefined;
    let refused: string | undefined;
    for (const [program, ...args] of entry.spec.commands) {
      const found = resolveServerProgram(program, lookup);
      if ("path" in found) {
        command = [found.path, ...args];
        break;
      }
      if ("refused" in found) refused ??= found.refused;
    }
    if (!command) {
      entry.state = refused ? "not run" : "missing";
      entry.reason = refused ?? `${entry.spec.commands.map((c) => c[0]).join(" or ")} not found on PATH`;
      return undefined;
    }
    entry.state = "starting";
    const client = new LspClient({
      name: entry.spec.name,
      command,
      root: entry.root,
      env: { ...this.opts.env, ...entry.spec.env },
      initializationOptions: entry.spec.initializationOptions,
      onExit: (detail) => this.crashed(entry, client, detail),
    });
    entry.client = client;
    this.clients.add(client);
    try {
      await client.start();
    } catch (err) {
      await client.abandon();
      this.clients.delete(client);
      if (entry.client !== client) return undefined;
      entry.client = undefined;
      entry.state = "unavailable";
      entry.reason = `${entry.spec.name} did not start: ${err instanceof Error ? err.message : String(err)}`;
      this.opts.notify?.(`language server ${entry.reason}`);
      return undefined;
    }
    if (this.closed) {
      await client.stop();
      return undefined;
    }
    entry.state = "running";
    // After a restart the server gets back the documents it had open.
    for (const [uri, text] of entry.docs) client.sync(uri, languageId(fileURLToPath(uri)), text, false);
    return client;
  }

  private crashed(entry: ServerEntry, client: LspClient, detail: string): void {
    // A crashed server's children (tsserver) go with it.
    client.killGroup();
    this.clients.delete(client);
    if (entry.client !== client || this.closed) return;
    entry.client = undefined;
    entry.restarts++;
    if (entry.restarts > MAX_RESTARTS) {
      entry.state = "unavailable";
      entry.reason = `${entry.spec.name} crashed ${entry.restarts} times (last: ${detail}); not restarted`;
      this.opts.notify?.(`language server ${entry.reason}`);
    } else {
      entry.state = "crashed";
      entry.reason = `${entry.spec.name} ${detail}; restarts on next use (${entry.restarts} of ${MAX_RESTARTS})`;
    }
  }

  /** The reason an entry cannot help, once (then undefined). */
  takeReport(entry: ServerEntry): string | undefined {
    if (entry.reported || !entry.reason || !["unavailable", "not run"].includes(entry.state))
      return undefined;
    entry.reported = true;
    return `${entry.spec.name} language server: ${entry.reason}`;
  }

  /** Opens (or brings up to date) `path` in its server from the file on disk; its uri and version. */
  async openFile(
    path: string,
    save: boolean,
  ): Promise<
    { entry: ServerEntry; client: LspClient; uri: string; version: number; mark: number } | undefined
  > {
    const entry = this.entryFor(path);
    if (!entry) return undefined;
    const client = await this.client(entry);
    if (!client || this.closed) return undefined;
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      return undefined;
    }
    const uri = pathToFileURL(path).href;
    const mark = client.published.mark();
    if (!save && entry.docs.get(uri) === text && client.isOpen(uri))
      return { entry, client, uri, version: 0, mark: -1 };
    entry.docs.set(uri, text);
    return { entry, client, uri, version: client.sync(uri, languageId(path), text, save), mark };
  }

  /** A tool read `path`: its server starts (and opens it) in the background. */
  touch(path: string): void {
    void this.openFile(path, false).catch(() => undefined);
  }

  /** `path` as the model sees it. */
  shown(path: string): string {
    return isInside(path, this.cwd) ? relative(this.cwd, path) || "." : path;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Starting ones too: a server still silent on `initialize` must not hold the session's end.
    await Promise.all([...this.clients].map((c) => c.stop()));
    process.off("exit", this.killAll);
  }
}
