// `tern mcp login <name>` and `/mcp login <name>` (R-MCP-1): the MCP authorization flow through
// the SDK's `auth()`, with the browser coming back to a loopback listener on 127.0.0.1 (port
// `oauth.callbackPort`, else a free one). The URL is always printed, and opened with the
// platform's opener where there is a display (never with TERN_NO_BROWSER=1).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { auth, extractResourceMetadataUrl } from "@modelcontextprotocol/sdk/client/auth.js";
import type { ToolSetConfig } from "../../../config/types.js";
import { TernOAuthProvider } from "./client-provider.js";

const LOGIN_TIMEOUT_MS = 5 * 60_000;

export interface LoginOptions {
  home: string;
  set: ToolSetConfig;
  /** Where the URL and progress lines go. */
  print(line: string): void;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  timeoutMs?: number;
}

interface Callback {
  url: string;
  code: Promise<string>;
  close(): void;
}

/** Listens on 127.0.0.1 for the one redirect that carries the code (or the server's refusal). */
async function listen(port: number, state: string): Promise<Callback> {
  let settle: { ok(code: string): void; fail(err: Error): void } = { ok: () => {}, fail: () => {} };
  const code = new Promise<string>((ok, fail) => {
    settle = { ok, fail };
  });
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback") {
      res.writeHead(404).end();
      return;
    }
    const error = url.searchParams.get("error");
    const got = url.searchParams.get("code");
    const ok = !error && got && url.searchParams.get("state") === state;
    res.writeHead(ok ? 200 : 400, { "content-type": "text/plain; charset=utf-8", connection: "close" });
    res.end(ok ? "tern: logged in. You can close this tab.\n" : "tern: the login did not complete.\n");
    if (ok) settle.ok(got);
    else
      settle.fail(
        new Error(
          error
            ? `the authorization server refused: ${error}${url.searchParams.get("error_description") ? ` (${url.searchParams.get("error_description")})` : ""}`
            : "the redirect carried no code or a wrong state",
        ),
      );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === "EADDRINUSE" ? `oauth.callbackPort ${port} is in use` : err.message)),
    );
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${bound}/callback`, code, close: () => server.close() };
}

/** The protected-resource metadata the server names in its 401, when it names one. */
async function resourceMetadataOf(url: string): Promise<URL | undefined> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "tern", version: "0" },
        },
      }),
      signal: AbortSignal.timeout(10_000),
    });
    await res.body?.cancel();
    return res.status === 401 ? extractResourceMetadataUrl(res) : undefined;
  } catch {
    return undefined;
  }
}

/** Opens the URL where a person can see it; says nothing when it cannot. */
export function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.TERN_NO_BROWSER === "1") return false;
  const opener =
    process.platform === "darwin"
      ? ["open", url]
      : process.platform === "win32"
        ? ["cmd", "/c", "start", "", url]
        : env.DISPLAY || env.WAYLAND_DISPLAY
          ? ["xdg-open", url]
          : undefined;
  if (!opener) return false;
  try {
    const child = spawn(opener[0], opener.slice(1), { stdio: "ignore", detached: true });
    child.on("error", () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}

/** Runs the whole login; resolves once the tokens are stored. */
export async function loginServer(opts: LoginOptions): Promise<void> {
  const { set } = opts;
  if (set.url === undefined)
    throw new Error(`tool set '${set.name}' is a stdio server: only HTTP servers log in`);
  const state = randomBytes(16).toString("hex");
  const callback = await listen(set.oauth?.callbackPort ?? 0, state);
  try {
    const provider = new TernOAuthProvider({
      home: opts.home,
      set: { ...set, url: set.url },
      login: {
        redirectUrl: callback.url,
        state,
        onAuthorizationUrl: (url) => {
          opts.print(`Open this URL to log in to '${set.name}':\n${url.href}`);
          if (openInBrowser(url.href, opts.env)) opts.print("(opened in your browser)");
          opts.print(`Waiting for the redirect to ${callback.url} …`);
        },
      },
    });
    // A new login starts clean: the old tokens, and a client registered for another redirect.
    provider.invalidateCredentials(set.oauth?.clientId ? "tokens" : "all");
    const resourceMetadataUrl = await resourceMetadataOf(set.url);
    const first = await auth(provider, { serverUrl: set.url, resourceMetadataUrl, scope: set.oauth?.scope });
    if (first === "AUTHORIZED") return;
    const code = await Promise.race([
      callback.code,
      new Promise<never>((_, reject) => {
        const limit = opts.timeoutMs ?? LOGIN_TIMEOUT_MS;
        setTimeout(
          () => reject(new Error(`no redirect came within ${Math.round(limit / 1000)}s`)),
          limit,
        ).unref();
        opts.signal?.addEventListener("abort", () => reject(new Error("login cancelled")), { once: true });
      }),
    ]);
    const done = await auth(provider, {
      serverUrl: set.url,
      authorizationCode: code,
      resourceMetadataUrl,
      scope: set.oauth?.scope,
    });
    if (done !== "AUTHORIZED") throw new Error("the authorization server did not issue tokens");
  } finally {
    callback.close();
  }
}
