// One running language server (R-LSP-1): its process (in its own process group, so its children
// end with it), the JSON-RPC connection over its stdio, `initialize` within 10 s, the documents
// it has open, and the diagnostics it published. What the server logs is dropped (it never
// reaches the model or tern's own output).
import { type ChildProcess, spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import * as lsp from "vscode-languageserver-protocol/node";
import { PublishedDiagnostics } from "./published.js";

export const INITIALIZE_TIMEOUT_MS = 10_000;

export interface ClientOptions {
  name: string;
  /** The resolved program first. */
  command: string[];
  root: string;
  env: NodeJS.ProcessEnv;
  initializationOptions?: unknown;
  /** The process ended without being asked to (a crash). */
  onExit(detail: string): void;
}

const quiet = { error() {}, warn() {}, info() {}, log() {} };

const CAPABILITIES: lsp.ClientCapabilities = {
  textDocument: {
    synchronization: { didSave: true, dynamicRegistration: false },
    publishDiagnostics: { versionSupport: true, relatedInformation: false },
    definition: { linkSupport: true },
    references: {},
    hover: { contentFormat: ["plaintext", "markdown"] },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    // Pull diagnostics (LSP 3.17): a server that offers them answers a document's request once it
    // has checked that version (pyright), instead of publishing whenever a pass ends.
    diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
  },
  workspace: { configuration: true, workspaceFolders: true, symbol: {} },
  window: { workDoneProgress: false },
};

export class LspClient {
  readonly published = new PublishedDiagnostics();
  /** Open documents: uri → version. */
  private readonly open = new Map<string, number>();
  private proc: ChildProcess | undefined;
  private connection: lsp.ProtocolConnection | undefined;
  private stopping = false;
  private exited: Promise<void> = Promise.resolve();
  readonly pid: () => number | undefined = () => this.proc?.pid;
  /** The server answers `textDocument/diagnostic` (said at initialize, or registered after it). */
  pulls = false;
  private pullsSaid: () => void = () => {};
  /** Settles when the server registers pull diagnostics (a registration may follow `initialized`). */
  readonly pullOffered = new Promise<void>((resolve) => {
    this.pullsSaid = resolve;
  });

  constructor(private readonly opts: ClientOptions) {}

  /** Starts the process and initializes it; throws with a one-line reason. */
  async start(): Promise<void> {
    const [program, ...args] = this.opts.command;
    const proc = spawn(program, args, {
      cwd: this.opts.root,
      env: this.opts.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    this.proc = proc;
    this.exited = new Promise((resolve) => proc.once("close", () => resolve()));
    const failed = new Promise<never>((_, reject) => proc.once("error", (err) => reject(err)));
    failed.catch(() => undefined);
    proc.stdin!.on("error", () => undefined);
    proc.stderr!.resume();
    proc.once("exit", (code, signal) => {
      this.published.end();
      this.connection?.dispose();
      if (!this.stopping) this.opts.onExit(signal ? `killed by ${signal}` : `exited with code ${code}`);
    });
    const connection = lsp.createProtocolConnection(
      new lsp.StreamMessageReader(proc.stdout!),
      new lsp.StreamMessageWriter(proc.stdin!),
      quiet,
    );
    this.connection = connection;
    this.answerServerRequests(connection);
    connection.onNotification(lsp.PublishDiagnosticsNotification.type, (p) => this.published.add(p));
    connection.onError(() => undefined);
    connection.listen();
    const rootUri = pathToFileURL(this.opts.root).href;
    const init = connection.sendRequest(lsp.InitializeRequest.type, {
      processId: process.pid,
      clientInfo: { name: "tern" },
      rootUri,
      rootPath: this.opts.root,
      workspaceFolders: [{ uri: rootUri, name: this.opts.root }],
      capabilities: CAPABILITIES,
      initializationOptions: this.opts.initializationOptions ?? {},
    });
    // The race below may be decided by the timer or the process's exit; a late rejection of the
    // request itself (the connection closing) must not go unhandled.
    init.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer to initialize in ${INITIALIZE_TIMEOUT_MS / 1000} s`)),
        INITIALIZE_TIMEOUT_MS,
      );
    });
    let answer: lsp.InitializeResult;
    try {
      answer = await Promise.race([init, timeout, failed]);
    } finally {
      clearTimeout(timer);
    }
    if (answer.capabilities.diagnosticProvider) this.offerPull();
    this.notify(lsp.InitializedNotification.type, {});
    this.notify(lsp.DidChangeConfigurationNotification.type, { settings: {} });
  }

  /** What a server may ask of its client: answered plainly, so no server waits on tern. */
  private answerServerRequests(connection: lsp.ProtocolConnection): void {
    connection.onRequest(lsp.ConfigurationRequest.type, (p) => p.items.map(() => null));
    connection.onRequest(lsp.RegistrationRequest.type, (p) => {
      if (p.registrations.some((r) => r.method === lsp.DocumentDiagnosticRequest.method)) this.offerPull();
    });
    connection.onRequest(lsp.UnregistrationRequest.type, () => undefined);
    connection.onRequest(lsp.WorkDoneProgressCreateRequest.type, () => undefined);
    connection.onRequest(lsp.ShowMessageRequest.type, () => null);
    connection.onRequest(lsp.WorkspaceFoldersRequest.type, () => [
      { uri: pathToFileURL(this.opts.root).href, name: this.opts.root },
    ]);
    connection.onRequest(lsp.ApplyWorkspaceEditRequest.type, () => ({ applied: false }));
    // Anything else (`workspace/diagnostic/refresh` and the other refreshes): a plain answer, since
    // a server may end itself on an error reply (pyright does).
    // (The star handler of vscode-jsonrpc, which ProtocolConnection's type does not name.)
    (connection as unknown as { onRequest(handler: (method: string) => unknown): void }).onRequest(
      () => null,
    );
  }

  private offerPull(): void {
    this.pulls = true;
    this.pullsSaid();
  }

  isOpen(uri: string): boolean {
    return this.open.has(uri);
  }

  openUris(): string[] {
    return [...this.open.keys()];
  }

  /** Opens or updates a document with its whole text; returns its new version. */
  sync(uri: string, languageId: string, text: string, save: boolean): number {
    const version = (this.open.get(uri) ?? 0) + 1;
    this.open.set(uri, version);
    if (version === 1)
      this.notify(lsp.DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId, version, text },
      });
    else
      this.notify(lsp.DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version },
        contentChanges: [{ text }],
      });
    if (save) this.notify(lsp.DidSaveTextDocumentNotification.type, { textDocument: { uri }, text });
    return version;
  }

  /**
   * A notification to the server. Writing to one that just crashed rejects (EPIPE); that must
   * never become an unhandled rejection that ends tern: the crash is seen through its exit.
   */
  private notify<P>(type: lsp.ProtocolNotificationType<P, unknown>, params: P): void {
    void (this.connection?.sendNotification(type, params as never) as Promise<void> | undefined)?.catch(
      () => undefined,
    );
  }

  request<R>(method: string, params: unknown, signal?: AbortSignal): Promise<R> {
    const source = new lsp.CancellationTokenSource();
    const abort = () => source.cancel();
    signal?.addEventListener("abort", abort, { once: true });
    return (this.connection!.sendRequest(method, params, source.token) as Promise<R>).finally(() =>
      signal?.removeEventListener("abort", abort),
    );
  }

  /** shutdown + exit, then the process group ends (SIGTERM, SIGKILL after 2 s). */
  async stop(): Promise<void> {
    if (this.stopping) return this.exited;
    this.stopping = true;
    const proc = this.proc;
    if (!proc?.pid) return;
    if (proc.exitCode !== null || proc.signalCode !== null) return this.endGroup();
    const polite = this.connection
      ? this.connection
          .sendRequest(lsp.ShutdownRequest.type)
          .then(() => this.connection?.sendNotification(lsp.ExitNotification.type))
          .catch(() => undefined)
      : Promise.resolve();
    await Promise.race([polite, delay(500)]);
    await Promise.race([this.exited, delay(500)]);
    this.killGroup("SIGTERM");
    const killed = await Promise.race([this.exited.then(() => true), delay(2000).then(() => false)]);
    if (!killed) this.killGroup("SIGKILL");
    this.connection?.dispose();
    await this.endGroup();
  }

  /** Ends a server that failed to start at once: nothing to ask it. */
  async abandon(): Promise<void> {
    this.stopping = true;
    this.connection?.dispose();
    await this.endGroup();
  }

  /** What the server started (tsserver, its typings installer) ends with it. */
  private async endGroup(): Promise<void> {
    this.killGroup("SIGKILL");
    for (let waited = 0; waited < 2000 && this.groupAlive(); waited += 20) await delay(20);
  }

  private groupAlive(): boolean {
    if (this.proc?.pid === undefined) return false;
    try {
      process.kill(-this.proc.pid, 0);
      return true;
    } catch {
      return false;
    }
  }

  /** Ends the group at once (tern is exiting: no time to ask). */
  killGroup(signal: NodeJS.Signals = "SIGKILL"): void {
    const pid = this.proc?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/** Held (not unref'd): a session's close waits on it even when nothing else keeps node running. */
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
