// What a session needs of its language servers, in one object (loaded through index.ts).
import type { Config } from "../config/types.js";
import { diagnoseEdit, type EditDiagnostics } from "./edit-diagnostics.js";
import { LspManager, type ServerState } from "./manager.js";
import { type LspQuery, type QueryAnswer, runQuery } from "./operations.js";

export type { EditDiagnostics, LspQuery, QueryAnswer, ServerState };

export interface ServerStatus {
  name: string;
  root: string;
  state: ServerState;
  reason?: string;
  pid?: number;
  openFiles: number;
}

/** A session's language servers: started on first touch, ended by `close`. */
export class SessionLanguageServers {
  private readonly manager: LspManager;

  constructor(opts: {
    cwd: string;
    config: Config;
    env: NodeJS.ProcessEnv;
    defaultTimeoutMs: number;
    notify?(text: string): void;
  }) {
    this.manager = new LspManager(opts);
    for (const warning of this.manager.warnings) opts.notify?.(warning);
  }

  /** A tool read `path` (absolute): its server starts and opens it, in the background. */
  touched(path: string): void {
    this.manager.touch(path);
  }

  /** Files an edit changed (absolute): their diagnostics, waited for up to `lsp.diagnosticsTimeoutMs`. */
  edited(paths: string[]): Promise<EditDiagnostics> {
    return diagnoseEdit(this.manager, paths);
  }

  query(q: LspQuery, signal: AbortSignal): Promise<QueryAnswer> {
    return runQuery(this.manager, q, signal);
  }

  /** Each (server, root) the session touched, for `/lsp`. */
  status(): ServerStatus[] {
    return this.manager.list().map((e) => ({
      name: e.spec.name,
      root: e.root,
      state: e.state,
      reason: e.reason,
      pid: e.client?.pid(),
      openFiles: e.docs.size,
    }));
  }

  close(): Promise<void> {
    return this.manager.close();
  }
}
