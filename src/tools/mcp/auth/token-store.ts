// Where an MCP server's login lives (R-MCP-1): `$TERN_HOME/mcp-auth/<name>.json`, mode 0600, in
// a folder of mode 0700, replaced whole (written beside, renamed over). It holds the registered
// client, the tokens (with when they expire), the PKCE verifier of a login in progress and the
// discovery state; nothing else of tern ever writes a token, and every value read or written is
// registered as a secret, so a token that reaches any text tern prints is redacted.
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import { registerSecret } from "../../../config/secrets.js";

export interface StoredLogin {
  /** The server URL the login is for: a changed URL needs a new login. */
  serverUrl: string;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** Epoch ms when the access token expires (from `expires_in` at save time). */
  expiresAt?: number;
  codeVerifier?: string;
  discovery?: OAuthDiscoveryState;
}

export const authDir = (home: string): string => join(home, "mcp-auth");
const fileOf = (home: string, name: string): string => join(authDir(home), `${name}.json`);

function remember(login: StoredLogin): void {
  registerSecret(login.tokens?.access_token);
  registerSecret(login.tokens?.refresh_token);
  registerSecret(login.client?.client_secret);
}

/** The stored login for a server, or undefined (none, another URL's, or unreadable). */
export function readLogin(home: string, name: string, serverUrl: string): StoredLogin | undefined {
  let login: StoredLogin;
  try {
    login = JSON.parse(readFileSync(fileOf(home, name), "utf8")) as StoredLogin;
  } catch {
    return undefined;
  }
  if (login.serverUrl !== serverUrl) return undefined;
  remember(login);
  return login;
}

export function writeLogin(home: string, name: string, login: StoredLogin): void {
  remember(login);
  const dir = authDir(home);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const file = fileOf(home, name);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** Forgets a server's login; true when there was one. */
export function removeLogin(home: string, name: string): boolean {
  const file = fileOf(home, name);
  try {
    readFileSync(file);
  } catch {
    return false;
  }
  rmSync(file, { force: true });
  return true;
}

/** Whether a stored login has tokens, and whether its access token is past its expiry. */
export function loginState(login: StoredLogin | undefined, now = Date.now()): "none" | "valid" | "expired" {
  if (!login?.tokens?.access_token) return "none";
  return login.expiresAt !== undefined && login.expiresAt <= now ? "expired" : "valid";
}
