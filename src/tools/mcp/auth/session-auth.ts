// A session's side of an HTTP server's login (R-MCP-1): the stored tokens are presented by the
// SDK's transport, an expired access token is refreshed before the first request (and a 401
// mid-session refreshes once and retries, in the transport), and a server that would need a
// person fails with NeedsLogin. A server configured with its own Authorization header keeps it.
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import type { ToolSetConfig } from "../../../config/types.js";
import { TernOAuthProvider } from "./client-provider.js";
import { loginState, readLogin } from "./token-store.js";

export async function sessionAuth(
  home: string,
  set: ToolSetConfig & { url: string },
  headers: Record<string, string>,
): Promise<TernOAuthProvider | undefined> {
  if (Object.keys(headers).some((h) => h.toLowerCase() === "authorization")) return undefined;
  const provider = new TernOAuthProvider({ home, set });
  const stored = readLogin(home, set.name, set.url);
  if (loginState(stored) === "expired" && stored?.tokens?.refresh_token) {
    // Refreshing needs no person; a refresh the server refuses leaves the 401 path to say "log in".
    await auth(provider, { serverUrl: set.url }).catch(() => undefined);
  }
  return provider;
}
