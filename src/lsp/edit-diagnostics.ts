// What an edit's result learns from the language servers (R-LSP-2): each edited file is synced
// (didOpen/didChange + didSave) and its diagnostics waited for, up to the timeout; then errors
// that are new in the server's other open files (a changed export breaking an importer).
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Diagnostic } from "vscode-languageserver-protocol";
import type { LspClient } from "./client.js";
import { diagnosticsAfter, diagnosticsNow, until } from "./file-diagnostics.js";
import { editDiagnosticsText, errorKey, type FileDiagnostics, isError, isWarning } from "./format.js";
import type { LspManager, ServerEntry } from "./manager.js";

/** Open documents checked for errors an edit caused, per server: the most recently opened. */
const MAX_OTHERS_CHECKED = 20;

export interface EditDiagnostics {
  /** Appended to the edit's result; "" when there is nothing to say. */
  text: string;
  /** Per edited file with a server that answered: its counts (the `lsp_diagnostics` event). */
  files: { path: string; errors: number; warnings: number }[];
}

function counted(path: string, list: Diagnostic[]): FileDiagnostics {
  return { path, errors: list.filter(isError), warnings: list.filter(isWarning).length };
}

async function errorsNow(entry: ServerEntry, client: LspClient, uri: string, deadline: number) {
  return (await diagnosticsNow(client, entry.spec.diagnostics, uri, deadline))?.filter(isError);
}

export async function diagnoseEdit(manager: LspManager, paths: string[]): Promise<EditDiagnostics> {
  const deadline = Date.now() + manager.timeoutMs;
  const edited: FileDiagnostics[] = [];
  const others: FileDiagnostics[] = [];
  const notes: string[] = [];
  const editedUris = new Set<string>();
  const targets = new Set(paths.map((p) => pathToFileURL(p).href));
  for (const path of paths) {
    const entry = manager.entryFor(path);
    if (!entry) continue;
    const client = await until(manager.client(entry), deadline);
    if (!client) {
      const report = manager.takeReport(entry);
      if (report) notes.push(report);
      continue;
    }
    // Errors the other open documents had before, to tell the new ones apart: as the last check
    // found them, asked now only for a document never checked.
    const known = entry.knownErrors;
    const otherUris = client
      .openUris()
      .filter((u) => !targets.has(u))
      .slice(-MAX_OTHERS_CHECKED);
    await Promise.all(
      otherUris
        .filter((uri) => !known.has(uri))
        .map(async (uri) => {
          const now = await errorsNow(entry, client, uri, deadline);
          if (now) known.set(uri, new Set(now.map(errorKey)));
        }),
    );
    const before = new Map(otherUris.map((uri) => [uri, known.get(uri) ?? new Set<string>()]));
    const change = await manager.openFile(path, true);
    if (!change) continue;
    editedUris.add(change.uri);
    const list = await diagnosticsAfter(change.client, entry.spec.diagnostics, change, deadline);
    if (list) {
      edited.push(counted(manager.shown(path), list));
      known.set(change.uri, new Set(list.filter(isError).map(errorKey)));
    }
    const after = await Promise.all(
      otherUris.map(async (uri) => [uri, await errorsNow(entry, client, uri, deadline)] as const),
    );
    for (const [uri, now] of after) {
      if (editedUris.has(uri) || !now) continue;
      known.set(uri, new Set(now.map(errorKey)));
      const fresh = now.filter((d) => !before.get(uri)!.has(errorKey(d)));
      if (fresh.length > 0)
        others.push({ path: manager.shown(fileURLToPath(uri)), errors: fresh, warnings: 0 });
    }
  }
  return {
    text: editDiagnosticsText(edited, others, notes),
    files: edited.map((f) => ({ path: f.path, errors: f.errors.length, warnings: f.warnings })),
  };
}
