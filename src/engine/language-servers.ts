// The session's language servers (R-LSP): the file tools' `codeIntel`, made with the session and
// ended with it; lsp/ loads when a tool first touches a file. After each edit that got
// diagnostics, an `lsp_diagnostics` event per edited file (R-LSP-4).
import { DEFAULT_LSP_DIAGNOSTICS_TIMEOUT_MS } from "../config/defaults.js";
import type { Config } from "../config/types.js";
import { loadLanguageServers, type ServerStatus, type SessionLanguageServers } from "../lsp/index.js";
import type { CodeIntel } from "../tools/types.js";
import type { EngineEvent } from "./door/events.js";

interface Options {
  cwd: string;
  config: Config;
  env: NodeJS.ProcessEnv;
  publish(event: EngineEvent): void;
}

export class LanguageServers implements CodeIntel {
  private loading: Promise<SessionLanguageServers> | undefined;
  private loaded: SessionLanguageServers | undefined;
  private closed = false;

  private constructor(private readonly opts: Options) {}

  /** Undefined when the configuration turns language servers off (`"lsp": false`). */
  static forSession(opts: Options): LanguageServers | undefined {
    return opts.config.lsp === false ? undefined : new LanguageServers(opts);
  }

  private servers(): Promise<SessionLanguageServers> {
    this.loading ??= loadLanguageServers().then(({ SessionLanguageServers }) => {
      this.loaded = new SessionLanguageServers({
        cwd: this.opts.cwd,
        config: this.opts.config,
        env: this.opts.env,
        defaultTimeoutMs: DEFAULT_LSP_DIAGNOSTICS_TIMEOUT_MS,
        notify: (text) => this.opts.publish({ type: "notice", text }),
      });
      if (this.closed) void this.loaded.close();
      return this.loaded;
    });
    return this.loading;
  }

  touched(path: string): void {
    if (!this.closed) void this.servers().then((s) => s.touched(path));
  }

  async edited(paths: string[]): Promise<string> {
    if (this.closed) return "";
    const report = await (await this.servers()).edited(paths);
    for (const file of report.files) this.opts.publish({ type: "lsp_diagnostics", ...file });
    return report.text;
  }

  async query(
    q: Parameters<CodeIntel["query"]>[0],
    signal: AbortSignal,
  ): Promise<{ ok: boolean; text: string }> {
    return (await this.servers()).query(q as Parameters<SessionLanguageServers["query"]>[0], signal);
  }

  /** Each server the session started or tried (`/lsp`); empty before any file was touched. */
  status(): ServerStatus[] {
    return this.loaded?.status() ?? [];
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.loaded?.close();
  }

  /** The same servers for a sub-agent's session: its close leaves them to the parent. */
  borrowed(): LanguageServers {
    return Object.assign(Object.create(LanguageServers.prototype) as LanguageServers, {
      touched: (path: string) => this.touched(path),
      edited: (paths: string[]) => this.edited(paths),
      query: (q: Parameters<CodeIntel["query"]>[0], signal: AbortSignal) => this.query(q, signal),
      status: () => this.status(),
      close: async () => {},
      borrowed: () => this.borrowed(),
    });
  }
}
