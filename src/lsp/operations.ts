// The `lsp` tool's operations (R-LSP-3): diagnostics, definition, references, hover, document and
// workspace symbols. Positions in and out are 1-based; places read `path:line:col: preview`.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type * as lsp from "vscode-languageserver-protocol";
import { diagnosticsAfter, diagnosticsNow } from "./file-diagnostics.js";
import { diagnosticLine, sortByPosition } from "./format.js";
import type { LspManager } from "./manager.js";
import type { LspOperation } from "../vocab/lsp-operations.js";

export interface LspQuery {
  operation: LspOperation;
  /** Absolute. */
  path?: string;
  line?: number;
  character?: number;
  query?: string;
}

export interface QueryAnswer {
  ok: boolean;
  text: string;
}

const SYMBOL_KINDS = [
  "",
  "file",
  "module",
  "namespace",
  "package",
  "class",
  "method",
  "property",
  "field",
  "constructor",
  "enum",
  "interface",
  "function",
  "variable",
  "constant",
  "string",
  "number",
  "boolean",
  "array",
  "object",
  "key",
  "null",
  "enum member",
  "struct",
  "event",
  "operator",
  "type parameter",
];

const fail = (text: string): QueryAnswer => ({ ok: false, text });
/** A list answer: its lines, or what says there are none. */
const listed = (lines: string[], none: string): QueryAnswer => ({
  ok: true,
  text: lines.length > 0 ? lines.join("\n") : none,
});
const kindName = (kind: lsp.SymbolKind) => SYMBOL_KINDS[kind] ?? "symbol";

/** Errors and warnings (a diagnostic without a severity is an error), by position, as lines. */
function problemLines(shown: string, list: lsp.Diagnostic[]): string[] {
  return sortByPosition(list.filter((d) => (d.severity ?? 1) <= 2)).map((d) => diagnosticLine(shown, d));
}

class Previews {
  private readonly files = new Map<string, string[]>();
  line(path: string, line: number): string {
    let lines = this.files.get(path);
    if (!lines) {
      try {
        lines = readFileSync(path, "utf8").split(/\r?\n/);
      } catch {
        lines = [];
      }
      this.files.set(path, lines);
    }
    const text = (lines[line] ?? "").trim();
    return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  }
}

function placeLine(
  manager: LspManager,
  previews: Previews,
  uri: string,
  start: lsp.Position,
  label?: string,
): string {
  const path = uri.startsWith("file:") ? fileURLToPath(uri) : uri;
  const where = `${manager.shown(path)}:${start.line + 1}:${start.character + 1}`;
  const preview = uri.startsWith("file:") ? previews.line(path, start.line) : "";
  return [where, label, preview].filter(Boolean).join(": ");
}

function locations(result: lsp.Definition | lsp.LocationLink[] | lsp.Location[] | null): lsp.Location[] {
  if (!result) return [];
  const list = Array.isArray(result) ? result : [result];
  return list.map((l) =>
    "targetUri" in l ? { uri: l.targetUri, range: l.targetSelectionRange ?? l.targetRange } : l,
  );
}

function hoverText(hover: lsp.Hover | null): string {
  if (!hover) return "";
  const parts = Array.isArray(hover.contents) ? hover.contents : [hover.contents];
  return parts
    .map((p) => (typeof p === "string" ? p : p.value))
    .join("\n\n")
    .replace(/^```\w*\n?/gm, "")
    .trim();
}

/** A workspace symbol as `path:line:col: kind name: preview`. */
function workspaceSymbolLine(manager: LspManager, previews: Previews, s: lsp.SymbolInformation): string {
  return placeLine(
    manager,
    previews,
    s.location.uri,
    s.location.range.start,
    `${kindName(s.kind)} ${s.name}`,
  );
}

function symbolLines(
  manager: LspManager,
  path: string,
  symbols: (lsp.DocumentSymbol | lsp.SymbolInformation)[],
  depth = 0,
): string[] {
  const out: string[] = [];
  for (const s of symbols) {
    const start = "location" in s ? s.location.range.start : s.selectionRange.start;
    out.push(
      `${"  ".repeat(depth)}${manager.shown(path)}:${start.line + 1}:${start.character + 1}: ${kindName(s.kind)} ${s.name}`,
    );
    if ("children" in s && s.children) out.push(...symbolLines(manager, path, s.children, depth + 1));
  }
  return out;
}

async function allDiagnostics(manager: LspManager, deadline: number): Promise<QueryAnswer> {
  const lines: string[] = [];
  let files = 0;
  for (const entry of manager.list()) {
    const client = entry.client;
    if (!client || entry.state !== "running") continue;
    for (const uri of client.openUris()) {
      files++;
      const list = (await diagnosticsNow(client, entry.spec.diagnostics, uri, deadline)) ?? [];
      lines.push(...problemLines(manager.shown(fileURLToPath(uri)), list));
    }
  }
  if (files === 0)
    return { ok: true, text: "No files are open in a language server yet (read or edit one first)." };
  return listed(lines, `No errors or warnings in ${files} open file(s).`);
}

export async function runQuery(manager: LspManager, q: LspQuery, signal: AbortSignal): Promise<QueryAnswer> {
  const deadline = Date.now() + Math.max(manager.timeoutMs, 10_000);
  if (q.operation === "diagnostics" && !q.path) return allDiagnostics(manager, deadline);
  if (q.operation === "workspace_symbols" && !q.path) {
    const running = manager.list().filter((e) => e.client && e.state === "running");
    if (running.length === 0)
      return fail("No language server is running yet: give a path of the language to search.");
    const lines: string[] = [];
    const previews = new Previews();
    for (const entry of running) {
      const found = await entry.client!.request<lsp.SymbolInformation[] | null>(
        "workspace/symbol",
        { query: q.query ?? "" },
        signal,
      );
      for (const s of found ?? [])
        if ("range" in s.location) lines.push(workspaceSymbolLine(manager, previews, s));
    }
    return listed(lines, `No symbols match "${q.query ?? ""}".`);
  }
  if (!q.path) return fail(`${q.operation} needs a path.`);
  const entry = manager.entryFor(q.path);
  if (!entry) return fail(`No language server handles ${manager.shown(q.path)}.`);
  const opened = await manager.openFile(q.path, false);
  if (!opened)
    return fail(
      manager.takeReport(entry) ??
        `The ${entry.spec.name} language server is not available: ${entry.reason ?? "it did not start"}.`,
    );
  const { client, uri } = opened;
  const previews = new Previews();
  if (q.operation === "diagnostics") {
    const list =
      opened.version > 0
        ? await diagnosticsAfter(client, entry.spec.diagnostics, opened, deadline)
        : await diagnosticsNow(client, entry.spec.diagnostics, uri, deadline);
    const shown = manager.shown(q.path);
    if (!list) return { ok: true, text: `No diagnostics from ${entry.spec.name} for ${shown} yet.` };
    return listed(problemLines(shown, list), `No errors or warnings in ${shown}.`);
  }
  if (q.operation === "symbols") {
    const found = await client.request<(lsp.DocumentSymbol | lsp.SymbolInformation)[] | null>(
      "textDocument/documentSymbol",
      { textDocument: { uri } },
      signal,
    );
    return listed(symbolLines(manager, q.path, found ?? []), `No symbols in ${manager.shown(q.path)}.`);
  }
  if (q.operation === "workspace_symbols") {
    const found = await client.request<lsp.SymbolInformation[] | null>(
      "workspace/symbol",
      { query: q.query ?? "" },
      signal,
    );
    const lines = (found ?? []).map((s) => workspaceSymbolLine(manager, previews, s));
    return listed(lines, `No symbols match "${q.query ?? ""}".`);
  }
  if (!q.line || !q.character) return fail(`${q.operation} needs line and character (1-based).`);
  const position = { line: q.line - 1, character: q.character - 1 };
  const at = { textDocument: { uri }, position };
  if (q.operation === "hover") {
    const text = hoverText(await client.request<lsp.Hover | null>("textDocument/hover", at, signal));
    return {
      ok: true,
      text: text || `Nothing to show at ${manager.shown(q.path)}:${q.line}:${q.character}.`,
    };
  }
  const method = q.operation === "definition" ? "textDocument/definition" : "textDocument/references";
  const params = q.operation === "references" ? { ...at, context: { includeDeclaration: true } } : at;
  const found = locations(
    await client.request<lsp.Location[] | lsp.LocationLink[] | null>(method, params, signal),
  );
  if (found.length === 0)
    return {
      ok: true,
      text: `No ${q.operation} found at ${manager.shown(q.path)}:${q.line}:${q.character}.`,
    };
  return { ok: true, text: found.map((l) => placeLine(manager, previews, l.uri, l.range.start)).join("\n") };
}
