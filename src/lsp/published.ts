// The diagnostics a server published, per document, and waiting for the next ones: a publish
// counts for a change when it came after it (and, when the server numbers them, is of its version
// or later); the server's follow-up publishes within a short quiet spell are taken too.
import type { Diagnostic, PublishDiagnosticsParams } from "vscode-languageserver-protocol";

interface Entry {
  diagnostics: Diagnostic[];
  version?: number;
  /** Order of arrival over all documents. */
  seq: number;
}

/** A server's follow-up publishes (syntax, then semantic checks) come within this of each other. */
export const QUIET_MS = 150;

export class PublishedDiagnostics {
  private readonly byUri = new Map<string, Entry>();
  private seq = 0;
  private readonly listeners = new Set<(uri: string | undefined) => void>();
  /** The server is gone: nothing more will come, so no one waits. */
  private ended = false;

  end(): void {
    this.ended = true;
    for (const listener of [...this.listeners]) listener(undefined);
  }

  add(params: PublishDiagnosticsParams): void {
    this.byUri.set(params.uri, { diagnostics: params.diagnostics, version: params.version, seq: ++this.seq });
    for (const listener of [...this.listeners]) listener(params.uri);
  }

  /** A mark: publishes after it are newer than anything seen so far. */
  mark(): number {
    return this.seq;
  }

  get(uri: string): Diagnostic[] | undefined {
    return this.byUri.get(uri)?.diagnostics;
  }

  uris(): string[] {
    return [...this.byUri.keys()];
  }

  /** Documents published since `mark`. */
  since(mark: number): string[] {
    return [...this.byUri].filter(([, e]) => e.seq > mark).map(([uri]) => uri);
  }

  private fresh(uri: string, mark: number, version: number | undefined): boolean {
    const entry = this.byUri.get(uri);
    if (!entry || entry.seq <= mark) return false;
    return version === undefined || entry.version === undefined || entry.version >= version;
  }

  /**
   * Waits until `uri` was published after `mark` (at `version` or later when numbered), then for
   * a quiet spell of `quietMs` with no publish of any document, or until `deadline`. True when it
   * got one.
   */
  wait(
    uri: string,
    mark: number,
    version: number | undefined,
    deadline: number,
    quietMs = QUIET_MS,
  ): Promise<boolean> {
    return new Promise((resolve) => {
      let got = this.fresh(uri, mark, version);
      let quiet: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(quiet);
        clearTimeout(limit);
        this.listeners.delete(listener);
        resolve(got);
      };
      const settle = () => {
        clearTimeout(quiet);
        quiet = setTimeout(done, Math.max(0, Math.min(quietMs, deadline - Date.now())));
      };
      const listener = (published: string | undefined) => {
        if (published === undefined) return done();
        if (!got && published === uri && this.fresh(uri, mark, version)) got = true;
        if (got) settle();
      };
      const limit = setTimeout(done, Math.max(0, deadline - Date.now()));
      this.listeners.add(listener);
      if (this.ended) done();
      else if (got) settle();
    });
  }
}
