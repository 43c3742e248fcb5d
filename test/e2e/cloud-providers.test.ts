// google/, bedrock/ and vertex/ end to end through the built CLI against real HTTP servers on
// 127.0.0.1 (R-PROV-12..14): a tool round trip with the thought signature going back through the
// record, usage and cost in turn_end, and no key, AWS secret or access token anywhere in the
// record, the ledger, --json or stderr.
import { generateKeyPairSync } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anthropicStream } from "../support/anthropic-script.js";
import { EVENT_STREAM_HEADERS, eventFrame, expectedAuthorization } from "../support/aws-event-stream.js";
import { jsonEvents } from "../support/cli.js";
import { openaiText } from "../support/openai-script.js";
import { useE2E } from "./tools-support.js";

const e = useE2E();

function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) hits.push(...filesContaining(path, needle));
    else if (readFileSync(path).includes(needle)) hits.push(path);
  }
  return hits;
}

const gemini = (parts: object[], finishReason: string, usage: object) =>
  `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts }, finishReason, index: 0 }], usageMetadata: usage })}\r\n\r\n`;

describe("google/<model> through tern run", () => {
  it("runs a tool round trip, sends the signature back from the record, prices it, leaks no key", async () => {
    const KEY = "AIzaSyTernTestKey_0123456789abcdefghij";
    e.provider.enqueue(
      {
        frames: [
          gemini([{ text: "Looking.", thought: true }], "", { promptTokenCount: 100 }).replace(
            ',"finishReason":""',
            "",
          ),
          gemini(
            [
              {
                functionCall: { name: "bash", args: { command: "echo from-gemini" } },
                thoughtSignature: "sig-gemini-1",
              },
            ],
            "STOP",
            {
              promptTokenCount: 1000,
              cachedContentTokenCount: 400,
              candidatesTokenCount: 20,
              thoughtsTokenCount: 30,
            },
          ),
        ],
      },
      {
        frames: [
          gemini([{ text: "It printed from-gemini." }], "STOP", {
            promptTokenCount: 1100,
            candidatesTokenCount: 5,
          }),
        ],
      },
    );
    const run = await e.run(["run", "--json", "--yes", "--model", "google/gemini-2.5-pro", "run echo"], {
      GEMINI_API_KEY: KEY,
      GOOGLE_GEMINI_BASE_URL: e.provider.url,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const events = jsonEvents(run.stdout);
    const end = events.find((ev) => ev.type === "turn_end");
    expect(end).toMatchObject({ stop_reason: "completed", rounds: 2, tool_calls: 1 });
    // gemini-2.5-pro: (600 × 1.25 + 400 × 0.125 + 50 × 10) + (1100 × 1.25 + 5 × 10) per million.
    expect(end.cost).toBeCloseTo((600 * 1.25 + 400 * 0.125 + 50 * 10 + 1100 * 1.25 + 5 * 10) / 1e6, 8);
    const second = e.provider.requests[1];
    expect(second.path).toBe("/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse");
    expect(second.body.contents[1]).toEqual({
      role: "model",
      parts: [
        {
          functionCall: { name: "bash", args: { command: "echo from-gemini" } },
          thoughtSignature: "sig-gemini-1",
        },
      ],
    });
    expect(second.body.contents[2].parts[0].functionResponse.name).toBe("bash");
    expect(JSON.stringify(second.body.contents[2])).toContain("from-gemini");
    expect(run.stdout).not.toContain(KEY);
    expect(filesContaining(e.dirs.home, KEY)).toEqual([]);
  });
});

describe("azure/<deployment> through tern run", () => {
  it("sends the key in api-key to {endpoint}/openai/v1 and keeps it out of everything written", async () => {
    const KEY = "azTernE2Ekey0123456789abcdef0123456789";
    e.provider.enqueue(openaiText("Hi from Azure.", { prompt_tokens: 10, completion_tokens: 4 }));
    const run = await e.run(["run", "--json", "--model", "azure/team-gpt41", "hi"], {
      AZURE_OPENAI_ENDPOINT: e.provider.url,
      AZURE_OPENAI_API_KEY: KEY,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const sent = e.provider.requests[0];
    expect(sent.path).toBe("/openai/v1/chat/completions");
    expect(sent.headers["api-key"]).toBe(KEY);
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body.model).toBe("team-gpt41");
    expect(run.stdout).not.toContain(KEY);
    expect(filesContaining(e.dirs.home, KEY)).toEqual([]);
  });
});

describe("long-context prices per request", () => {
  it("bills each request at its own tier: two 150k-token requests are no 300k-token one", async () => {
    e.provider.enqueue(
      {
        frames: [
          gemini([{ functionCall: { name: "bash", args: { command: "echo hi" } } }], "STOP", {
            promptTokenCount: 150_000,
            candidatesTokenCount: 10,
          }),
        ],
      },
      {
        frames: [gemini([{ text: "done" }], "STOP", { promptTokenCount: 250_000, candidatesTokenCount: 10 })],
      },
    );
    const run = await e.run(["run", "--json", "--yes", "--model", "google/gemini-2.5-pro", "go"], {
      GEMINI_API_KEY: "AIzaSyTernTestKey_tiers_0123456789abc",
      GOOGLE_GEMINI_BASE_URL: e.provider.url,
    });
    expect(run.code).toBe(0);
    const end = jsonEvents(run.stdout).find((ev) => ev.type === "turn_end");
    // gemini-2.5-pro: $1.25 / $10 up to 200k prompt tokens, $2.5 / $15 above.
    expect(end.cost).toBeCloseTo((150_000 * 1.25 + 10 * 10 + 250_000 * 2.5 + 10 * 15) / 1e6, 8);
  });
});

describe("bedrock/<modelId> through tern run", () => {
  it("signs with the environment's AWS credentials, prices cache reads and writes, leaks no secret", async () => {
    const creds = {
      accessKeyId: "AKIDTERNE2E000000001",
      secretAccessKey: "ternE2Esecret/AccessKey0123456789abcdefgh",
      sessionToken: "ternE2EsessionTokenValue0123456789abcdef",
    };
    e.provider.enqueue({
      headers: EVENT_STREAM_HEADERS,
      binaryFrames: [
        eventFrame("messageStart", { role: "assistant" }),
        eventFrame("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Hello from Bedrock." } }),
        eventFrame("contentBlockStop", { contentBlockIndex: 0 }),
        eventFrame("messageStop", { stopReason: "end_turn" }),
        eventFrame("metadata", {
          usage: {
            inputTokens: 100,
            outputTokens: 10,
            cacheReadInputTokens: 1000,
            cacheWriteInputTokens: 200,
          },
        }),
      ],
    });
    const model = "bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0";
    const run = await e.run(["run", "--json", "--model", model, "hi"], {
      AWS_REGION: "us-west-2",
      AWS_ENDPOINT_URL_BEDROCK_RUNTIME: e.provider.url,
      AWS_ACCESS_KEY_ID: creds.accessKeyId,
      AWS_SECRET_ACCESS_KEY: creds.secretAccessKey,
      AWS_SESSION_TOKEN: creds.sessionToken,
      AWS_CONFIG_FILE: join(e.dirs.root, "no-aws-config"),
      AWS_SHARED_CREDENTIALS_FILE: join(e.dirs.root, "no-aws-credentials"),
      AWS_EC2_METADATA_DISABLED: "true",
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const end = jsonEvents(run.stdout).find((ev) => ev.type === "turn_end");
    expect(end.usage).toMatchObject({ prompt: 1300, completion: 10, cache_read: 1000, cache_write: 200 });
    expect(end.cost).toBeCloseTo((100 * 3 + 1000 * 0.3 + 200 * 3.75 + 10 * 15) / 1e6, 8);
    const sent = e.provider.requests[0];
    expect(sent.headers.authorization).toBe(
      await expectedAuthorization(sent, creds, "us-west-2", e.provider.port),
    );
    for (const secret of [creds.secretAccessKey, creds.sessionToken]) {
      expect(run.stdout).not.toContain(secret);
      expect(filesContaining(e.dirs.home, secret)).toEqual([]);
    }
  });
});

describe("vertex/<model> through tern run", () => {
  it("exchanges the service account's JWT at its token_uri and calls Claude by streamRawPredict", async () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const TOKEN = "ya29.ternE2EaccessToken0123456789abcdef";
    let exchanges = 0;
    const tokenServer = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        exchanges++;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ access_token: TOKEN, expires_in: 3600, token_type: "Bearer" }));
      });
    });
    await new Promise<void>((resolve) => tokenServer.listen(0, "127.0.0.1", resolve));
    try {
      const file = join(e.dirs.root, "sa.json");
      writeFileSync(
        file,
        JSON.stringify({
          type: "service_account",
          client_email: "e2e@proj.iam.gserviceaccount.com",
          private_key: privateKey.export({ type: "pkcs8", format: "pem" }),
          token_uri: `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/token`,
        }),
      );
      e.provider.enqueue(anthropicStream().text("Hi from Vertex.").build());
      const run = await e.run(
        ["run", "--json", "--model", "vertex/claude-sonnet-4-5@20250929", "--base-url", e.provider.url, "hi"],
        {
          GOOGLE_APPLICATION_CREDENTIALS: file,
          GOOGLE_CLOUD_PROJECT: "proj",
          GOOGLE_CLOUD_LOCATION: "us-east5",
        },
      );
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(exchanges).toBe(1);
      const sent = e.provider.requests[0];
      expect(sent.path).toBe(
        "/v1/projects/proj/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict",
      );
      expect(sent.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(sent.body).toMatchObject({ anthropic_version: "vertex-2023-10-16" });
      expect(sent.body.model).toBeUndefined();
      expect(run.stdout).not.toContain(TOKEN);
      expect(filesContaining(e.dirs.home, TOKEN)).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => tokenServer.close(() => resolve()));
    }
  });
});

describe("vertex/<model> on the metadata server", () => {
  it("takes the token google-auth-library gets from the metadata server and calls Gemini", async () => {
    const TOKEN = "ya29.ternE2EmetadataToken0123456789abcdef";
    const asked: string[] = [];
    const metadata = createServer((req, res) => {
      asked.push(`${req.url} ${req.headers["metadata-flavor"]}`);
      const headers = { "metadata-flavor": "Google", "content-type": "application/json" };
      if (req.url?.startsWith("/computeMetadata/v1/instance/service-accounts/default/token")) {
        res.writeHead(200, headers);
        res.end(JSON.stringify({ access_token: TOKEN, expires_in: 3599, token_type: "Bearer" }));
      } else if (req.url?.startsWith("/computeMetadata/v1/project/project-id")) {
        res.writeHead(200, { ...headers, "content-type": "text/plain" });
        res.end("proj");
      } else {
        res.writeHead(200, headers);
        res.end("{}");
      }
    });
    await new Promise<void>((resolve) => metadata.listen(0, "127.0.0.1", resolve));
    try {
      e.provider.enqueue({
        frames: [
          gemini([{ text: "Hi from Vertex Gemini." }], "STOP", {
            promptTokenCount: 5,
            candidatesTokenCount: 4,
          }),
        ],
      });
      const env = {
        GCE_METADATA_HOST: `127.0.0.1:${(metadata.address() as AddressInfo).port}`,
        METADATA_SERVER_DETECTION: "assume-present",
        CLOUDSDK_CONFIG: join(e.dirs.root, "no-gcloud"),
        HOME: e.dirs.root,
        GOOGLE_CLOUD_PROJECT: "proj",
        GOOGLE_CLOUD_LOCATION: "europe-west4",
      };
      const args = ["run", "--json", "--model", "vertex/gemini-2.5-flash", "--base-url", e.provider.url];
      const run = await e.run([...args, "hi"], env);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(jsonEvents(run.stdout).find((ev) => ev.type === "turn_end").stop_reason).toBe("completed");
      const sent = e.provider.requests[0];
      expect(sent.path).toBe(
        "/v1/projects/proj/locations/europe-west4/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
      );
      expect(sent.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(asked.filter((a) => a.includes("/token")).every((a) => a.endsWith(" Google"))).toBe(true);
      expect(asked.filter((a) => a.includes("/token"))).toHaveLength(1);
      expect(filesContaining(e.dirs.home, TOKEN)).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => metadata.close(() => resolve()));
    }
  });
});
