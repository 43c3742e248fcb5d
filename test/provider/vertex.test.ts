// Vertex AI (R-PROV-13) against real HTTP servers on 127.0.0.1: a Google token endpoint that
// checks the service account's RS256 JWT grant (a key generated here, the file's own token_uri),
// and a fake Vertex that checks the URL shapes, the Bearer token and the bodies of Gemini
// (streamGenerateContent) and Claude (streamRawPredict, anthropic_version, no model) requests.
import { createVerify, generateKeyPairSync } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAnthropicAdapter } from "../../src/provider/anthropic-messages.js";
import { createGeminiAdapter } from "../../src/provider/gemini.js";
import { forgetGoogleToken } from "../../src/provider/google-credentials.js";
import type { NormalizedRequest, ProviderAdapter } from "../../src/provider/types.js";
import { anthropicStream } from "../support/anthropic-script.js";
import { FakeProvider } from "../support/fake-provider.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const EMAIL = "tern-test@proj.iam.gserviceaccount.com";

interface Grant {
  header: any;
  claims: any;
  verified: boolean;
  grantType: string | null;
  form: Record<string, string>;
}

let tokenServer: Server;
let tokenUri: string;
let grants: Grant[] = [];
let tokenCounter = 0;
let tokenLifetime = 3600;
let dirs: TempDirs;
let fake: FakeProvider;
const savedCredentials = process.env.GOOGLE_APPLICATION_CREDENTIALS;

beforeAll(async () => {
  tokenServer = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const form = new URLSearchParams(body);
      if (form.get("grant_type") === "refresh_token") {
        grants.push({
          header: null,
          claims: null,
          verified: true,
          grantType: "refresh_token",
          form: Object.fromEntries(form),
        });
        tokenCounter++;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ access_token: `ya29.user-token-${tokenCounter}`, expires_in: 3600 }));
        return;
      }
      const [head, claims, signature] = (form.get("assertion") ?? "..").split(".");
      const verified = createVerify("RSA-SHA256")
        .update(`${head}.${claims}`)
        .verify(publicKey, signature, "base64url");
      grants.push({
        header: JSON.parse(Buffer.from(head, "base64url").toString()),
        claims: JSON.parse(Buffer.from(claims, "base64url").toString()),
        verified,
        grantType: form.get("grant_type"),
        form: Object.fromEntries(form),
      });
      res.writeHead(verified ? 200 : 400, { "content-type": "application/json" });
      tokenCounter++;
      res.end(
        JSON.stringify(
          verified
            ? {
                access_token: `ya29.test-token-${tokenCounter}`,
                expires_in: tokenLifetime,
                token_type: "Bearer",
              }
            : { error: "invalid_grant", error_description: "Invalid JWT Signature." },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => tokenServer.listen(0, "127.0.0.1", resolve));
  tokenUri = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/token`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => tokenServer.close(() => resolve()));
  if (savedCredentials === undefined) delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
  else process.env.GOOGLE_APPLICATION_CREDENTIALS = savedCredentials;
});
beforeEach(async () => {
  grants = [];
  tokenLifetime = 3600;
  forgetGoogleToken();
  dirs = makeTempDirs();
  const file = join(dirs.root, "sa.json");
  writeFileSync(
    file,
    JSON.stringify({
      type: "service_account",
      project_id: "proj",
      private_key_id: "key-1",
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }),
      client_email: EMAIL,
      token_uri: tokenUri,
    }),
  );
  process.env.GOOGLE_APPLICATION_CREDENTIALS = file;
  fake = await FakeProvider.start();
});
afterEach(async () => {
  await fake.close();
  dirs.cleanup();
  forgetGoogleToken();
});

const request: NormalizedRequest = {
  model: "gemini-2.5-pro",
  system: "sys",
  tools: [],
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  images: false,
};
const base = () => `${fake.url}/v1/projects/proj/locations/us-east5/publishers`;

async function drain(adapter: ProviderAdapter, req: NormalizedRequest) {
  const events = [];
  for await (const e of adapter.stream(req, { signal: new AbortController().signal, idleTimeoutMs: 5000 }))
    events.push(e);
  return events.at(-1);
}

const geminiAnswer = () => ({
  frames: [
    `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text: "hello" }] }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1 } })}\r\n\r\n`,
  ],
});

describe("vertex: Application Default Credentials from a service-account file", () => {
  it("exchanges a signed JWT at the file's own token_uri and reuses the token until it expires", async () => {
    const adapter = createGeminiAdapter({
      api: "google-gemini",
      baseUrl: `${base()}/google`,
      headers: {},
      auth: { kind: "google-adc" },
    });
    fake.enqueue(geminiAnswer(), geminiAnswer());
    await drain(adapter, request);
    await drain(adapter, request);
    expect(grants).toHaveLength(1);
    const [grant] = grants;
    expect(grant.verified).toBe(true);
    expect(grant.grantType).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    expect(grant.header).toMatchObject({ alg: "RS256", typ: "JWT", kid: "key-1" });
    expect(grant.claims).toMatchObject({
      iss: EMAIL,
      aud: tokenUri,
      scope: "https://www.googleapis.com/auth/cloud-platform",
    });
    expect(grant.claims.exp - grant.claims.iat).toBe(3600);
    for (const sent of fake.requests) {
      expect(sent.path).toBe(
        "/v1/projects/proj/locations/us-east5/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
      );
      expect(sent.headers.authorization).toBe(`Bearer ya29.test-token-${tokenCounter}`);
      expect(sent.headers["x-goog-api-key"]).toBeUndefined();
    }
  });

  it("fetches a new token once the old one is about to expire", async () => {
    tokenLifetime = 30; // inside the refresh margin: never reused
    const adapter = createGeminiAdapter({
      api: "google-gemini",
      baseUrl: `${base()}/google`,
      headers: {},
      auth: { kind: "google-adc" },
    });
    fake.enqueue(geminiAnswer(), geminiAnswer());
    await drain(adapter, request);
    await drain(adapter, request);
    expect(grants).toHaveLength(2);
  });

  it("fails as an auth error naming no secret when the token endpoint refuses", async () => {
    writeFileSync(
      process.env.GOOGLE_APPLICATION_CREDENTIALS as string,
      JSON.stringify({
        type: "service_account",
        private_key: generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
          type: "pkcs8",
          format: "pem",
        }),
        client_email: EMAIL,
        token_uri: tokenUri,
      }),
    );
    const adapter = createGeminiAdapter({
      api: "google-gemini",
      baseUrl: `${base()}/google`,
      headers: {},
      auth: { kind: "google-adc" },
    });
    const error = await drain(adapter, request).catch((e) => e);
    expect(error).toMatchObject({ errorClass: "auth", retryable: false });
    expect(error.message).toContain("invalid_grant");
    expect(error.message).not.toContain("PRIVATE KEY");
    expect(fake.requests).toHaveLength(0);
  });
});

describe("vertex: gcloud's user credentials", () => {
  it("refreshes at the file's token_uri when no GOOGLE_APPLICATION_CREDENTIALS is set", async () => {
    delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
    const saved = process.env.CLOUDSDK_CONFIG;
    process.env.CLOUDSDK_CONFIG = dirs.root;
    try {
      writeFileSync(
        join(dirs.root, "application_default_credentials.json"),
        JSON.stringify({
          type: "authorized_user",
          client_id: "client-1.apps.googleusercontent.com",
          client_secret: "client-secret-1",
          refresh_token: "1//refresh-token-1",
          token_uri: tokenUri,
        }),
      );
      const adapter = createGeminiAdapter({
        api: "google-gemini",
        baseUrl: `${base()}/google`,
        headers: {},
        auth: { kind: "google-adc" },
      });
      fake.enqueue(geminiAnswer());
      await drain(adapter, request);
      expect(grants).toEqual([
        expect.objectContaining({
          grantType: "refresh_token",
          form: {
            grant_type: "refresh_token",
            client_id: "client-1.apps.googleusercontent.com",
            client_secret: "client-secret-1",
            refresh_token: "1//refresh-token-1",
          },
        }),
      ]);
      expect(fake.requests[0].headers.authorization).toBe(`Bearer ya29.user-token-${tokenCounter}`);
    } finally {
      if (saved === undefined) delete process.env.CLOUDSDK_CONFIG;
      else process.env.CLOUDSDK_CONFIG = saved;
    }
  });
});

describe("vertex: Claude by streamRawPredict", () => {
  it("puts the model in the path, anthropic_version in the body and no model there", async () => {
    const adapter = createAnthropicAdapter({
      api: "anthropic-messages",
      baseUrl: `${base()}/anthropic`,
      headers: {},
      auth: { kind: "google-adc" },
      vertexAnthropic: true,
    });
    fake.enqueue(anthropicStream().text("hi there").build());
    const done: any = await drain(adapter, { ...request, model: "claude-sonnet-4-5@20250929" });
    expect(done.result.text).toBe("hi there");
    const sent = fake.requests[0];
    expect(sent.path).toBe(
      "/v1/projects/proj/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict",
    );
    expect(sent.headers.authorization).toMatch(/^Bearer ya29\.test-token-\d+$/);
    expect(sent.headers["x-api-key"]).toBeUndefined();
    expect(sent.body.anthropic_version).toBe("vertex-2023-10-16");
    expect(sent.body).not.toHaveProperty("model");
    expect(sent.body.stream).toBe(true);
    expect(sent.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] },
    ]);
  });
});
