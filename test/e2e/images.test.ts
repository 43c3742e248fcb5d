// Images end to end (R-PROV-8, SPEC §10): `--image` and `@img.png` attach images, stored once under
// the session's attachments/ with only the ref in the record; image models get image parts, others
// a placeholder; read_file on a PNG reaches the model (OpenAI through the multimodal bridge,
// Anthropic inside tool_result); an image over the provider's limit is refused before any request.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { beforeEach, describe, expect, it } from "vitest";
import { jsonEvents } from "../support/cli.js";
import { anthropicStream } from "../support/anthropic-script.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useE2E } from "./tools-support.js";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** A valid 1×1 RGB PNG of one colour. */
function png(r: number, g: number, b: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.from([0, r, g, b]))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const RED = png(255, 0, 0);
const BLUE = png(0, 0, 255);
const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString("base64")}`;
const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

const e = useE2E({
  config: () => ({
    retry: { maxRetries: 1, baseDelaySeconds: 0.01, jitter: 0 },
    models: { "openai/mock-vision": { images: true, contextWindow: 128000, maxOutputTokens: 4096 } },
  }),
});
beforeEach(() => {
  writeFileSync(join(e.dirs.workspace, "red.png"), RED);
  writeFileSync(join(e.dirs.workspace, "blue.png"), BLUE);
});

const { run } = e;
const openai = (model: string, args: string[]) =>
  run(["run", "--json", "--yes", "--model", model, "--base-url", e.provider.baseUrl, ...args], {
    OPENAI_API_KEY: "x",
  });
const anthropic = (args: string[]) => {
  const model = ["--model", "anthropic/claude-sonnet-4-5", "--base-url", e.provider.url];
  return run(["run", "--json", "--yes", ...model, ...args], { ANTHROPIC_API_KEY: "x" });
};

function sessionDirs(): string[] {
  const root = join(e.dirs.home, "sessions");
  const out: string[] = [];
  for (const ws of readdirSync(root))
    for (const id of readdirSync(join(root, ws))) out.push(join(root, ws, id));
  return out;
}
const records = (dir: string) =>
  readFileSync(join(dir, "record.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe("images with an OpenAI-compatible model", () => {
  it("attaches @img and --image as image_url parts, stores them once, and bridges read_file images", async () => {
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "blue.png" } }]),
      openaiText("Red, red and blue."),
    );
    const result = await openai("openai/mock-vision", [
      "--image",
      "red.png",
      "--image",
      "blue.png",
      "what colour is @red.png ?",
    ]);
    expect(result.stderr).toBe("");
    expect(result.code, result.stderr).toBe(0);

    // Prompt: the text, then @-images, then --image files, as image_url parts.
    const user = e.provider.requests[0].body.messages.at(-1);
    expect(user).toEqual({
      role: "user",
      content: [
        { type: "text", text: "what colour is @red.png ?" },
        { type: "image_url", image_url: { url: dataUrl(RED) } },
        { type: "image_url", image_url: { url: dataUrl(RED) } },
        { type: "image_url", image_url: { url: dataUrl(BLUE) } },
      ],
    });

    // read_file's image: tool message text, then a user message with the image, labelled by call id.
    const second = e.provider.requests[1].body.messages;
    expect(second.map((m: any) => m.role)).toEqual(["system", "user", "assistant", "tool", "user"]);
    expect(second[3].tool_call_id).toBe("c1");
    expect(second[3].content).toContain("Image blue.png (image/png");
    expect(second[3].content).not.toContain("base64");
    expect(second[4].content).toEqual([
      { type: "text", text: "Images from tool call c1:" },
      { type: "image_url", image_url: { url: dataUrl(BLUE) } },
    ]);

    // Stored once by content hash; the record holds refs only, never the bytes.
    const [dir] = sessionDirs();
    const stored = readdirSync(join(dir, "attachments")).sort();
    expect(stored).toEqual([`${sha(BLUE)}.png`, `${sha(RED)}.png`].sort());
    expect(readFileSync(join(dir, "attachments", `${sha(RED)}.png`))).toEqual(RED);
    const raw = readFileSync(join(dir, "record.jsonl"), "utf8");
    expect(raw).not.toContain(RED.toString("base64"));
    expect(raw).not.toContain(BLUE.toString("base64"));
    const lines = records(dir);
    expect(lines.find((l) => l.type === "user_prompt").content).toEqual([
      { type: "text", text: "what colour is @red.png ?" },
      { type: "image", mediaType: "image/png", ref: `${sha(RED)}.png` },
      { type: "image", mediaType: "image/png", ref: `${sha(RED)}.png` },
      { type: "image", mediaType: "image/png", ref: `${sha(BLUE)}.png` },
    ]);
    expect(lines.find((l) => l.type === "tool_result").content[1]).toEqual({
      type: "image",
      mediaType: "image/png",
      ref: `${sha(BLUE)}.png`,
    });

    // A resumed session loads the images back from attachments/.
    e.provider.enqueue(openaiText("Still red."));
    const resumed = await openai("openai/mock-vision", ["--continue", "and now?"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const replay = e.provider.requests[2].body.messages;
    expect(replay[1].content[1]).toEqual({ type: "image_url", image_url: { url: dataUrl(RED) } });
    expect(replay[4].content[1]).toEqual({ type: "image_url", image_url: { url: dataUrl(BLUE) } });
  });

  it("sends a text placeholder to a model without image input", async () => {
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "blue.png" } }]),
      openaiText("I cannot see it."),
    );
    const result = await openai("openai/mock-1", ["--image", "red.png", "describe it"]);
    expect(result.code, result.stderr).toBe(0);
    const first = e.provider.requests[0].body.messages.at(-1);
    expect(typeof first.content).toBe("string");
    expect(first.content).toMatch(/^describe it\n\[image omitted/);
    const second = e.provider.requests[1].body.messages;
    expect(second.map((m: any) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(second[3].content).toMatch(/Image blue\.png .*\n\[image omitted/);
    expect(JSON.stringify(e.provider.requests.map((r) => r.body))).not.toContain("base64");
    // The image is still kept for a later switch to an image model.
    expect(readdirSync(join(sessionDirs()[0], "attachments"))).toContain(`${sha(RED)}.png`);
  });

  it("refuses a file that is not an image, and a missing one, with exit 2 and no request", async () => {
    writeFileSync(join(e.dirs.workspace, "notes.png"), "just text\n");
    const notImage = await openai("openai/mock-vision", ["--image", "notes.png", "hi"]);
    expect(notImage.code).toBe(2);
    expect(notImage.stderr).toMatch(/notes\.png: not a PNG, JPEG, GIF or WebP file/);
    const missing = await openai("openai/mock-vision", ["look at @gone.png"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/gone\.png: file not found/);
    expect(e.provider.requests).toHaveLength(0);
  });
});

describe("images with Anthropic", () => {
  it("sends prompt images as image blocks and read_file images inside tool_result", async () => {
    e.provider.enqueue(
      anthropicStream()
        .toolUse({ id: "toolu_1", name: "read_file", input: { path: "blue.png" } })
        .stop("tool_use")
        .build(),
      anthropicStream().text("Blue.").build(),
    );
    const result = await anthropic(["--image", "red.png", "compare"]);
    expect(result.code, result.stderr).toBe(0);
    const source = (bytes: Buffer) => ({
      type: "base64",
      media_type: "image/png",
      data: bytes.toString("base64"),
    });
    const first = e.provider.requests[0].body.messages[0];
    expect(first.content.map(({ cache_control: _c, ...b }: any) => b)).toEqual([
      { type: "text", text: "compare" },
      { type: "image", source: source(RED) },
    ]);
    const toolResult = e.provider.requests[1].body.messages[2].content[0];
    expect(toolResult).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1", is_error: false });
    expect(toolResult.content[0]).toMatchObject({
      type: "text",
      text: expect.stringContaining("Image blue.png"),
    });
    expect(toolResult.content[1]).toMatchObject({ type: "image", source: source(BLUE) });
    expect(
      jsonEvents(result.stdout)
        .filter((e) => e.type === "assistant_message")
        .at(-1),
    ).toMatchObject({
      text: "Blue.",
    });
  });

  it("refuses a 6 MB image naming the 5 MB limit, exit 2, nothing sent", async () => {
    // A PNG signature and header, padded to 6 MB: big enough to trip the limit before anything else.
    writeFileSync(join(e.dirs.workspace, "big.png"), Buffer.concat([RED, Buffer.alloc(6 * 1024 * 1024)]));
    for (const args of [["--image", "big.png", "look"], ["look at @big.png"]]) {
      const result = await anthropic(args);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/big\.png: 6\.0 MB is over the provider's 5 MB limit per image/);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stdout).toBe("");
    }
    expect(e.provider.requests).toHaveLength(0);
    // Refused before the session was created: nothing on disk.
    expect(existsSync(join(e.dirs.home, "sessions"))).toBe(false);
    // The same file is fine for OpenAI (20 MB limit) as far as the size check goes.
    e.provider.enqueue(openaiText("ok"));
    const openaiRun = await openai("openai/mock-vision", ["--image", "big.png", "look"]);
    expect(openaiRun.code, openaiRun.stderr).toBe(0);
    expect(e.provider.requests).toHaveLength(1);
  });
});
