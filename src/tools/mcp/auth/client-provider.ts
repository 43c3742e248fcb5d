// tern as an OAuth client of one MCP server (R-MCP-1), for the MCP SDK's own flow (`auth()`:
// discovery, dynamic registration, PKCE S256, the `resource` parameter, refresh). Two uses:
// a login (`tern mcp login`, `/mcp login`), which hands the authorization URL to the person and
// registers a client when none is configured; and a session's connection, which only presents
// and refreshes what a login stored — when a person would be needed it fails with NeedsLogin,
// so that server alone fails with one line naming the command.
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { ToolSetConfig } from "../../../config/types.js";
import { readLogin, type StoredLogin, writeLogin } from "./token-store.js";

export class NeedsLogin extends Error {
  override name = "NeedsLogin";
  constructor(readonly server: string) {
    super(`needs a login: run 'tern mcp login ${server}'`);
  }
}

export interface ProviderOptions {
  home: string;
  set: ToolSetConfig & { url: string };
  /** A login: where the browser comes back to, and who shows the person the URL. */
  login?: { redirectUrl: string; state: string; onAuthorizationUrl(url: URL): void };
}

export class TernOAuthProvider implements OAuthClientProvider {
  private stored: StoredLogin;

  constructor(private readonly opts: ProviderOptions) {
    this.stored = readLogin(opts.home, opts.set.name, opts.set.url) ?? { serverUrl: opts.set.url };
  }

  get redirectUrl(): string {
    return this.opts.login?.redirectUrl ?? "http://127.0.0.1/callback";
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "tern",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.opts.set.oauth?.clientSecret ? "client_secret_post" : "none",
      ...(this.opts.set.oauth?.scope ? { scope: this.opts.set.oauth.scope } : {}),
    };
  }

  /** The login's `state`, checked when the browser comes back. */
  state(): string {
    return this.opts.login?.state ?? "";
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const configured = this.opts.set.oauth?.clientId;
    if (configured)
      return {
        client_id: configured,
        ...(this.opts.set.oauth?.clientSecret ? { client_secret: this.opts.set.oauth.clientSecret } : {}),
      };
    if (this.stored.client) return this.stored.client;
    // Registering a client is part of a login; a session never does it behind the person's back.
    if (!this.opts.login) throw new NeedsLogin(this.opts.set.name);
    return undefined;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.save({ client });
  }

  tokens(): OAuthTokens | undefined {
    return this.stored.tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    // A refresh may answer without a new refresh token: the old one stays good.
    const refresh = tokens.refresh_token ?? this.stored.tokens?.refresh_token;
    this.save({
      tokens: { ...tokens, ...(refresh ? { refresh_token: refresh } : {}) },
      expiresAt: tokens.expires_in !== undefined ? Date.now() + tokens.expires_in * 1000 : undefined,
    });
  }

  redirectToAuthorization(url: URL): void {
    if (!this.opts.login) throw new NeedsLogin(this.opts.set.name);
    this.opts.login.onAuthorizationUrl(url);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.save({ codeVerifier });
  }

  codeVerifier(): string {
    if (!this.stored.codeVerifier) throw new NeedsLogin(this.opts.set.name);
    return this.stored.codeVerifier;
  }

  saveDiscoveryState(discovery: OAuthDiscoveryState): void {
    this.save({ discovery });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.stored.discovery;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    const next = { ...this.stored };
    if (scope === "all" || scope === "client") next.client = undefined;
    if (scope === "all" || scope === "tokens") {
      next.tokens = undefined;
      next.expiresAt = undefined;
    }
    if (scope === "all" || scope === "verifier") next.codeVerifier = undefined;
    if (scope === "all" || scope === "discovery") next.discovery = undefined;
    this.stored = next;
    writeLogin(this.opts.home, this.opts.set.name, this.stored);
  }

  private save(part: Partial<StoredLogin>): void {
    this.stored = { ...this.stored, ...part, serverUrl: this.opts.set.url };
    writeLogin(this.opts.home, this.opts.set.name, this.stored);
  }
}
