// The face of lsp/: a session's language servers load on first use (a file tool's first call), so
// the protocol library is never on tern's start path.
export type {
  EditDiagnostics,
  LspQuery,
  QueryAnswer,
  ServerState,
  ServerStatus,
  SessionLanguageServers,
} from "./session-servers.js";

export const loadLanguageServers = () => import("./session-servers.js");
