// A document's diagnostics now, the way its server gives them: typescript-language-server
// publishes nothing when a file was clean and stays clean, and publishes its syntax and semantic
// checks separately, so for it tsserver is asked directly (`typescript.tsserverRequest`, the
// same checks and messages it publishes); a server offering pull diagnostics is asked
// (`textDocument/diagnostic`); every other server's next publish is waited for.
import type { Diagnostic } from "vscode-languageserver-protocol";
import type { LspClient } from "./client.js";

export type DiagnosticsWay = "published" | "tsserver";

interface TsDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  category?: string;
  source?: string;
}

const SEVERITY: Record<string, 1 | 2 | 3 | 4> = { error: 1, warning: 2, suggestion: 4, message: 3 };

function fromTsserver(d: TsDiagnostic): Diagnostic {
  return {
    range: {
      start: { line: d.start.line - 1, character: d.start.offset - 1 },
      end: { line: d.end.line - 1, character: d.end.offset - 1 },
    },
    message: d.text,
    severity: SEVERITY[d.category ?? "error"] ?? 1,
    code: d.code,
    source: d.source ?? "typescript",
  };
}

async function askTsserver(client: LspClient, uri: string, signal?: AbortSignal): Promise<Diagnostic[]> {
  const ask = async (command: string) => {
    const answer = await client.request<unknown>(
      "workspace/executeCommand",
      { command: "typescript.tsserverRequest", arguments: [command, { file: uri }] },
      signal,
    );
    const body = Array.isArray(answer) ? answer : (answer as { body?: unknown } | null)?.body;
    return Array.isArray(body) ? (body as TsDiagnostic[]).map(fromTsserver) : [];
  };
  const [syntax, semantic] = await Promise.all([
    ask("syntacticDiagnosticsSync"),
    ask("semanticDiagnosticsSync"),
  ]);
  return [...syntax, ...semantic];
}

/** A document's diagnostics pulled: the server answers for the version it has, checked. */
async function pull(client: LspClient, uri: string): Promise<Diagnostic[]> {
  const report = await client.request<{ kind: string; items?: Diagnostic[] }>("textDocument/diagnostic", {
    textDocument: { uri },
  });
  return report.items ?? [];
}

/** `work`'s value, or undefined once `deadline` (epoch ms) passes or it fails. */
export function until<T>(work: Promise<T>, deadline: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([work.catch(() => undefined), late]).finally(() => clearTimeout(timer));
}

/**
 * The diagnostics of `uri` after the change that made `version` (sent after `mark`), or
 * undefined when the server had none by `deadline`.
 */
export async function diagnosticsAfter(
  client: LspClient,
  way: DiagnosticsWay,
  change: { uri: string; mark: number; version?: number },
  deadline: number,
): Promise<Diagnostic[] | undefined> {
  if (way === "tsserver") return until(askTsserver(client, change.uri), deadline);
  if (client.pulls) return until(pull(client, change.uri), deadline);
  // A server may register pull diagnostics only after `initialized`, and then publish nothing.
  const got = await Promise.race([
    client.published.wait(change.uri, change.mark, change.version, deadline),
    client.pullOffered.then(() => "pull" as const),
  ]);
  if (got === "pull") return until(pull(client, change.uri), deadline);
  return got ? client.published.get(change.uri) : undefined;
}

/** What the server holds for an open document now (no waiting for a new analysis). */
export async function diagnosticsNow(
  client: LspClient,
  way: DiagnosticsWay,
  uri: string,
  deadline: number,
): Promise<Diagnostic[] | undefined> {
  if (way === "tsserver") return until(askTsserver(client, uri), deadline);
  if (client.pulls) return until(pull(client, uri), deadline);
  return client.published.get(uri);
}
