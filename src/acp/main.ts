// `tern acp`: the ACP agent over stdio. stdout carries JSON-RPC only: the protocol writes to its
// own stream on file descriptor 1 and anything else that would print to stdout goes to stderr.
// The agent ends when the client closes stdin.
import { createWriteStream } from "node:fs";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { type AcpAgentOptions, buildAgent } from "./agent.js";

export async function runAcpAgent(opts: AcpAgentOptions): Promise<number> {
  const protocolOut = createWriteStream("", { fd: 1, autoClose: false });
  // Stray writes (a library's console.log) must not corrupt the JSON-RPC stream.
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  const stream = acp.ndJsonStream(
    Writable.toWeb(protocolOut) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
  const connection = buildAgent(opts).connect(stream);
  await connection.closed.catch(() => undefined);
  // Let the sessions close (records flushed) before the process ends.
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise<void>((resolve) => protocolOut.end(resolve));
  return 0;
}
