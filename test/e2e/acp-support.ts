// Drives `tern acp` (the built CLI) as a real process from the ACP SDK's client side over stdio,
// with a temp TERN_HOME, a workspace and the fake provider as the model.
import { type ChildProcess, spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { cliEnv, TERN_BIN } from "../support/cli.js";

export interface AcpClient {
  child: ChildProcess;
  agent: acp.ClientContext;
  connection: acp.ClientConnection;
  /** Every session/update received, in order. */
  updates: acp.SessionNotification[];
  /** Every permission request received, in order. */
  permissions: acp.RequestPermissionRequest[];
  /** How the next permission request is answered. */
  answer: (
    request: acp.RequestPermissionRequest,
  ) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;
  /** Every elicitation/create request received, in order. */
  elicitations: any[];
  /** How the next elicitation/create is answered (default: cancel). */
  elicit: (request: any) => any;
  stderr(): string;
  exited: Promise<number | null>;
  /** Updates of one session of a kind. */
  of(kind: acp.SessionUpdate["sessionUpdate"], sessionId?: string): any[];
  close(): Promise<number | null>;
}

export function startAcp(opts: {
  home: string;
  baseUrl: string;
  model?: string;
  env?: Record<string, string>;
}): AcpClient {
  const child = spawn(
    process.execPath,
    [TERN_BIN, "acp", "--model", opts.model ?? "openai/mock-1", "--base-url", opts.baseUrl],
    // The agent process starts somewhere else than the workspace: session/new names it.
    {
      cwd: opts.home,
      env: cliEnv(opts.home, { OPENAI_API_KEY: "sk-test-secret-key", ...opts.env }),
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const client: AcpClient = {
    child,
    updates: [],
    permissions: [],
    elicitations: [],
    elicit: () => ({ action: "cancel" }),
    answer: () => ({ outcome: { outcome: "cancelled" } }),
    stderr: () => stderr,
    exited,
    of: (kind: string, sessionId?: string) =>
      client.updates
        .filter(
          (n) => n.update.sessionUpdate === kind && (sessionId === undefined || n.sessionId === sessionId),
        )
        .map((n) => n.update),
    close: async () => {
      child.stdin!.end();
      return exited;
    },
  } as unknown as AcpClient;
  const app = acp
    .client({ name: "tern-test" })
    .onNotification("session/update", ({ params }) => {
      client.updates.push(params);
    })
    .onRequest("session/request_permission", async ({ params }) => {
      client.permissions.push(params);
      return client.answer(params);
    })
    .onRequest("elicitation/create", async ({ params }) => {
      client.elicitations.push(params);
      return client.elicit(params);
    });
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
  );
  client.connection = app.connect(stream);
  client.agent = client.connection.agent;
  return client;
}

export async function initialize(
  client: AcpClient,
  extra: Partial<acp.ClientCapabilities> = {},
): Promise<acp.InitializeResponse> {
  return client.agent.request("initialize", {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, ...extra },
  });
}

export const text = (t: string): acp.ContentBlock => ({ type: "text", text: t });
