// Google access tokens for Vertex AI (R-PROV-13), by Application Default Credentials: the
// service-account file in GOOGLE_APPLICATION_CREDENTIALS, else what google-auth-library finds
// (gcloud's user credentials, the metadata server). A token is reused until shortly before it
// expires. Loaded with the first Vertex request only. No token or key ever enters an error text.
//
// A service-account file is exchanged here, not by google-auth-library: its JWT client posts to
// Google's fixed token URL and ignores the file's own `token_uri` (gtoken/getToken.js in 10.x),
// which the SPEC requires to be honoured. The grant is Google's documented one (RFC 7523): an RS256
// JWT {iss: client_email, scope, aud: token_uri, iat, exp} posted as
// `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`.
import { createSign } from "node:crypto";
import { readFile } from "node:fs/promises";
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
  const file = env.GOOGLE_APPLICATION_CREDENTIALS;
  if (file) {
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(await readFile(file, "utf8"));
    } catch (error) {
      throw authError(`GOOGLE_APPLICATION_CREDENTIALS (${file}) cannot be read as JSON: ${errorCode(error)}`);
    }
    if (json.type === "service_account") return serviceAccountToken(json, file);
  }
  return libraryToken();
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
  let response: Response;
  try {
    response = await fetch(tokenUri, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: `${head}.${claims}.${signature}`,
      }).toString(),
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
    // Only the error code and description: the answer could echo the assertion.
    const why = [body.error, body.error_description].filter((v) => typeof v === "string").join(": ");
    throw new ProviderError({
      errorClass: response.status >= 500 ? "server" : "auth",
      retryable: response.status >= 500,
      status: response.status,
      message: `Google token exchange for ${email} failed (HTTP ${response.status}${why ? `: ${why}` : ""})`,
    });
  }
  const seconds = typeof body.expires_in === "number" ? body.expires_in : 3600;
  return { token: body.access_token, expiresAt: Date.now() + seconds * 1000 };
}

/** gcloud's user credentials or the metadata server, by google-auth-library (its retries off). */
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
