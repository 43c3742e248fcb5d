// The stdio line reader: messages split across chunks and several in one chunk, CRLF, a message
// over the limit refused with a reason tern can name (and the reader usable after it).
import { describe, expect, it } from "vitest";
import { isOversizeError, LinearReadBuffer } from "../../src/tools/mcp/mcp-read-buffer.js";

const msg = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, result: { n: id } });

describe("LinearReadBuffer", () => {
  it("reads messages split over chunks, several per chunk, and CRLF lines", () => {
    const buf = new LinearReadBuffer(1024);
    const wire = Buffer.from(`${msg(1)}\n${msg(2)}\r\n${msg(3)}\n`);
    const out: unknown[] = [];
    for (let i = 0; i < wire.length; i += 7) {
      buf.append(wire.subarray(i, i + 7));
      for (let m = buf.readMessage(); m; m = buf.readMessage()) out.push(m);
    }
    expect(out).toEqual([1, 2, 3].map((id) => ({ jsonrpc: "2.0", id, result: { n: id } })));
    expect(buf.readMessage()).toBeNull();
  });

  it("refuses a message over its limit with a reason that names it, and reads on after", () => {
    const buf = new LinearReadBuffer(64);
    buf.append(Buffer.from("x".repeat(60)));
    let thrown: unknown;
    try {
      buf.append(Buffer.from("x".repeat(10)));
    } catch (err) {
      thrown = err;
    }
    expect(isOversizeError(thrown)).toBe(true);
    expect((thrown as Error).message).toBe("the server sent a message over 0 MB");
    buf.append(Buffer.from(`${msg(7)}\n`));
    expect(buf.readMessage()).toEqual({ jsonrpc: "2.0", id: 7, result: { n: 7 } });
  });
});
