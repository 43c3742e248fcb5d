// The `lsp` tool's operations (R-LSP-3), named once for the tool's schema (tools/) and the
// language servers that answer them (lsp/).
export const LSP_OPERATIONS = [
  "diagnostics",
  "definition",
  "references",
  "hover",
  "symbols",
  "workspace_symbols",
] as const;
export type LspOperation = (typeof LSP_OPERATIONS)[number];
