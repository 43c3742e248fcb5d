// Google access tokens for Vertex AI (R-PROV-13), by Application Default Credentials: the file in
// GOOGLE_APPLICATION_CREDENTIALS or gcloud's own (a service account or user credentials), else what
// google-auth-library finds (the metadata server, workload identity). A token is reused until
// shortly before it expires. Loaded with the first Vertex request only. No token or key ever
// enters an error text.
//
// Service-account and user-credential files are exchanged here, not by google-auth-library: its
// JWT client posts to Google's fixed token URL and ignores the file's own `token_uri`
// (gtoken/getToken.js in 10.x), which the SPEC requires to be honoured. The grants are Google's
// documented ones: an RS256 JWT {iss: client_email, scope, aud: token_uri, iat, exp} posted as
// `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` (RFC 7523), and a `refresh_token` grant.
import { createSign } from "node:crypto";
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { ProviderError } from "./errors.js";

const SCOPE = "https://www.googleapis.com/auth/cloud-platform";
const DEFAULT_TOKEN_URI = "https://oauth2.googleapis.com/token";
/** A token this close to its expiry is replaced before use. */
const REFRESH_MARGIN_MS = 60_000;

interface CachedToken {
  token: string;
  expiresAt: number;
}

let cached: CachedToken | undefined;
let pending: Promise<CachedToken> | undefined;

/** A valid access token; fetched once and shared by every request of the process until it expires. */
export async function googleAccessToken(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (cached && cached.expiresAt - REFRESH_MARGIN_MS > Date.now()) return cached.token;
  pending ??= fetchToken(env).finally(() => {
    pending = undefined;
  });
  cached = await pending;
  return cached.token;
}

/** Forgets the cached token (tests; a token the server refused). */
export function forgetGoogleToken(): void {
  cached = undefined;
}

async function fetchToken(env: NodeJS.ProcessEnv): Promise<CachedToken> {
  const named = env.GOOGLE_APPLICATION_CREDENTIALS;
  const file = named || gcloudCredentialsFile(env);
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    if (named)
      throw authError(`GOOGLE_APPLICATION_CREDENTIALS (${file}) cannot be read as JSON: ${errorCode(error)}`);
  }
  if (json?.type === "service_account") return serviceAccountToken(json, file);
  if (json?.type === "authorized_user") return userToken(json, file);
  return libraryToken();
}

/** gcloud's Application Default Credentials file (`gcloud auth application-default login`). */
function gcloudCredentialsFile(env: NodeJS.ProcessEnv): string {
  const config =
    env.CLOUDSDK_CONFIG ||
    (process.platform === "win32" && env.APPDATA
      ? join(env.APPDATA, "gcloud")
      : join(env.HOME || homedir(), ".config", "gcloud"));
  return join(config, "application_default_credentials.json");
}

/** gcloud's user credentials: a refresh-token grant at the file's `token_uri` (Google's by default). */
async function userToken(json: Record<string, unknown>, file: string): Promise<CachedToken> {
  const { client_id, client_secret, refresh_token } = json;
  if (
    typeof client_id !== "string" ||
    typeof client_secret !== "string" ||
    typeof refresh_token !== "string"
  ) {
    throw authError(`${file}: user credentials need client_id, client_secret and refresh_token`);
  }
  const form = { grant_type: "refresh_token", client_id, client_secret, refresh_token };
  return exchange(tokenUriOf(json), form, `the user credentials in ${file}`);
}

async function serviceAccountToken(json: Record<string, unknown>, file: string): Promise<CachedToken> {
  const email = json.client_email;
  const key = json.private_key;
  if (typeof email !== "string" || typeof key !== "string") {
    throw authError(`${file}: a service-account file needs client_email and private_key`);
  }
  const tokenUri =
    typeof json.token_uri === "string" && json.token_uri !== "" ? json.token_uri : DEFAULT_TOKEN_URI;
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const head = encode({
    alg: "RS256",
    typ: "JWT",
    ...(typeof json.private_key_id === "string" ? { kid: json.private_key_id } : {}),
  });
  const claims = encode({ iss: email, scope: SCOPE, aud: tokenUri, iat: now, exp: now + 3600 });
  let signature: string;
  try {
    signature = createSign("RSA-SHA256").update(`${head}.${claims}`).sign(key, "base64url");
  } catch {
    throw authError(`${file}: its private_key cannot sign (not a PEM RSA key)`);
  }
  const assertion = `${head}.${claims}.${signature}`;
  return exchange(tokenUri, { grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }, email);
}

/** One OAuth token request; only the server's error code and description reach the message. */
async function exchange(tokenUri: string, form: Record<string, string>, who: string): Promise<CachedToken> {
  let response: Response;
  try {
    response = await fetch(tokenUri, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    });
  } catch (error) {
    throw new ProviderError({
      errorClass: "network",
      retryable: true,
      message: `Google token endpoint ${new URL(tokenUri).host} unreachable: ${errorCode(error)}`,
    });
  }
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text);
  } catch {}
  if (!response.ok || typeof body.access_token !== "string") {
    const why = [body.error, body.error_description].filter((v) => typeof v === "string").join(": ");
    throw new ProviderError({
      errorClass: response.status >= 500 ? "server" : "auth",
      retryable: response.status >= 500,
      status: response.status,
      message: `Google token exchange for ${who} failed (HTTP ${response.status}${why ? `: ${why}` : ""})`,
    });
  }
  const seconds = typeof body.expires_in === "number" ? body.expires_in : 3600;
  return { token: body.access_token, expiresAt: Date.now() + seconds * 1000 };
}

const tokenUriOf = (json: Record<string, unknown>) =>
  typeof json.token_uri === "string" && json.token_uri !== "" ? json.token_uri : DEFAULT_TOKEN_URI;

/** Every other ADC source (the metadata server, workload identity), by google-auth-library. */
async function libraryToken(): Promise<CachedToken> {
  const library = await import("google-auth-library");
  // Named in Node, under `default` once the build has split the package into its own chunk.
  const GoogleAuth = library.GoogleAuth ?? library.default?.GoogleAuth;
  try {
    const auth = new GoogleAuth({ scopes: [SCOPE] });
    const client = await auth.getClient();
    const { token, res } = await client.getAccessToken();
    if (!token) throw new Error("no access token");
    const expiry = (client.credentials as { expiry_date?: number } | undefined)?.expiry_date;
    void res;
    return { token, expiresAt: typeof expiry === "number" ? expiry : Date.now() + 3000_000 };
  } catch (error) {
    throw authError(
      `no Google credentials for Vertex AI (${errorCode(error)}): run \`gcloud auth application-default login\` or set GOOGLE_APPLICATION_CREDENTIALS to a service-account file`,
    );
  }
}

function authError(message: string): ProviderError {
  return new ProviderError({ errorClass: "auth", retryable: false, message });
}

/** A failure's kind without its text (which can quote a credential). */
function errorCode(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "string") return code;
  const name = (error as { name?: unknown })?.name;
  return typeof name === "string" ? name : "error";
}
