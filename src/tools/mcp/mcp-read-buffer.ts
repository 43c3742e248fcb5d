// The stdio transport's line reader, linear in the message size. The SDK's own reader joins every
// incoming chunk onto the bytes before it (a 30 MB result took seconds of copying) and stops at
// 10 MB by closing the connection, so one large result (a big file read through a server) lost
// the whole server for the session. This one keeps the chunks and joins them once per message,
// up to MAX_MESSAGE_BYTES.
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { deserializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** What the transport reports when one message is larger (see isOversizeError). */
const OVERSIZE = "sent a message over";

const NEWLINE = 0x0a;

export class LinearReadBuffer {
  private chunks: Buffer[] = [];
  private length = 0;
  /** Bytes from the start already known to hold no newline. */
  private scanned = 0;

  constructor(private readonly maxBytes = MAX_MESSAGE_BYTES) {}

  append(chunk: Buffer): void {
    if (this.length + chunk.length > this.maxBytes) {
      this.clear();
      throw new Error(`the server ${OVERSIZE} ${Math.round(this.maxBytes / 1024 / 1024)} MB`);
    }
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  readMessage(): JSONRPCMessage | null {
    let offset = 0;
    for (const chunk of this.chunks) {
      if (offset + chunk.length > this.scanned) {
        const at = chunk.indexOf(NEWLINE, Math.max(0, this.scanned - offset));
        if (at >= 0) return this.take(offset + at);
      }
      offset += chunk.length;
    }
    this.scanned = this.length;
    return null;
  }

  clear(): void {
    this.chunks = [];
    this.length = 0;
    this.scanned = 0;
  }

  /** The line ending at byte `end` (its newline), parsed; the bytes after it stay. */
  private take(end: number): JSONRPCMessage {
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.length);
    const rest = all.subarray(end + 1);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.length = rest.length;
    this.scanned = 0;
    return deserializeMessage(all.toString("utf8", 0, end).replace(/\r$/, ""));
  }
}

/** Puts the linear reader in place of the SDK's (a private field of the pinned SDK version). */
export function installLinearReader(transport: StdioClientTransport): void {
  const fields = transport as unknown as { _readBuffer?: unknown };
  if (fields._readBuffer !== undefined) fields._readBuffer = new LinearReadBuffer();
}

export function isOversizeError(err: unknown): boolean {
  return err instanceof Error && err.message.includes(OVERSIZE);
}
