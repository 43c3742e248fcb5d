// Typed prompt input, shared by every front end that takes text from the user: the text (+
// `--image` files) becomes message content; `@path/to/img.png` and `--image` attach PNG, JPEG,
// GIF or WebP files (SPEC §10), refused over the provider's limit.
import { existsSync, readdirSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { readDeniedBy } from "../config/attach-deny.js";
import { IMAGE_LIMIT_BYTES } from "../config/image-limits.js";
import { type PathReach, pathReach } from "../config/workspace-reach.js";
import type { ProviderApi } from "../config/types.js";
import { FileTooLargeError, NotRegularFileError, readRegularFile } from "../tools/builtin/safe-read.js";
import type { ContentPart, TextPart } from "../vocab/messages.js";
import { fileBlock, folderBlock, splitLineRange } from "./attach-format.js";
import { ternHomeOf } from "../config/tern-home.js";

/** A prompt that cannot be sent as typed: one line naming the file and why. */
export class InputError extends Error {}

const IMAGE_EXT = /\.(png|jpe?g|gif|webp)$/i;

/** The image type the bytes really are (providers refuse a mislabelled image), or undefined. */
export function sniffImageType(bytes: Buffer): string | undefined {
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47) return "image/png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes.length >= 6 && bytes.subarray(0, 4).toString("latin1") === "GIF8") return "image/gif";
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString("latin1") === "RIFF" &&
    bytes.subarray(8, 12).toString("latin1") === "WEBP"
  )
    return "image/webp";
  return undefined;
}

function readImageFile(path: string, cwd: string, api: ProviderApi, where?: AttachPlace): ContentPart {
  const abs = resolve(cwd, path);
  // An `@image` is judged like any attachment (§10); a `--image` file is the person's own choice.
  if (where && existsSync(abs)) {
    const reach = attachReach(abs, where);
    if (reach.verdict === "never")
      throw new InputError(`image @${path}: not attached: ${reach.why} (${reach.real})`);
    if (reach.verdict === "outside")
      throw new InputError(
        `image @${path}: leads outside the workspace, to ${reach.real}; not attached (name it with --image to send it)`,
      );
  }
  const limit = IMAGE_LIMIT_BYTES[api];
  let bytes: Buffer;
  try {
    // Non-blocking and checked on the open file: a FIFO, device or folder is refused, never read (SPEC §10).
    bytes = readRegularFile(abs, limit).data;
  } catch (err) {
    if (err instanceof NotRegularFileError) throw new InputError(`image ${path}: ${err.message}`);
    if (err instanceof FileTooLargeError) {
      const mb = limit / (1024 * 1024);
      throw new InputError(
        `image ${path}: ${(err.size / 1024 / 1024).toFixed(1)} MB is over the provider's ${mb} MB limit per image`,
      );
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new InputError(`image ${path}: file not found`);
    throw new InputError(`image ${path}: cannot read it (${code ?? (err as Error).message})`);
  }
  return imagePart(path, bytes);
}

function imagePart(path: string, bytes: Buffer): ContentPart {
  const mediaType = sniffImageType(bytes);
  if (!mediaType) throw new InputError(`image ${path}: not a PNG, JPEG, GIF or WebP file`);
  return { type: "image", mediaType, data: bytes.toString("base64") };
}

/** An image pasted from the clipboard (R-UI-21), held by the UI under its `@clipboard-N.png` name. */
function pastedImage(name: string, bytes: Buffer, api: ProviderApi): ContentPart {
  const limit = IMAGE_LIMIT_BYTES[api];
  if (bytes.length > limit)
    throw new InputError(
      `image ${name}: ${(bytes.length / 1024 / 1024).toFixed(1)} MB is over the provider's ${limit / (1024 * 1024)} MB limit per image`,
    );
  return imagePart(name, bytes);
}

/** A text file is attached up to this size (then cut to the limit); larger ones stay text. */
const MAX_ATTACH_BYTES = 8 * 1024 * 1024;
const MAX_LISTING = 1000;
/** The default of `toolOutputLimit` (R-TOOL-6), for callers that do not pass the configured one. */
const DEFAULT_TEXT_LIMIT = 30_000;

/** A folder as its listing (folders end in `/`), or undefined when it cannot be listed. */
function listFolder(abs: string): string[] | undefined {
  try {
    const entries = readdirSync(abs, { withFileTypes: true })
      .map((d) => (d.isDirectory() ? `${d.name}/` : d.name))
      .sort();
    return entries.length > MAX_LISTING
      ? [...entries.slice(0, MAX_LISTING), `… ${entries.length - MAX_LISTING} more`]
      : entries;
  } catch {
    return undefined;
  }
}

/**
 * R-WF-4: `@path` names a text file (whole, or `:40-80` lines) or a folder that exists; anything
 * else (a mention, a missing file, a FIFO, a binary file) stays as typed text only.
 */
function attachText(
  token: string,
  where: AttachPlace,
  limit: number,
  deny: readonly string[],
): TextPart | undefined {
  for (const candidate of [token, token.replace(/[.,;:!?)\]]+$/, "")]) {
    const { path, from, to } = splitLineRange(candidate);
    const abs = resolve(where.cwd, path);
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(abs);
    } catch {
      continue;
    }
    const denied = readDeniedBy(deny, abs, where.cwd);
    if (denied) throw new InputError(`@${path}: not attached: reading it is denied by rule ${denied}`);
    // §10: judged on the real path (a symlinked file or folder, `..`), as instruction imports are.
    const reach = attachReach(abs, where);
    if (reach.verdict === "never")
      return {
        type: "text",
        text: `(@${path} was not attached)`,
        outside: { shown: path, real: reach.real, never: reach.why },
      };
    const part = readAttachment(reach.real, abs, path, st.isDirectory(), limit, from, to);
    if (!part || reach.verdict === "inside") return part;
    return {
      type: "text",
      text: `(@${path} leads outside the workspace, to ${reach.real}: not attached)`,
      outside: { shown: path, real: reach.real, held: part.text },
    };
  }
  return undefined;
}

/** A file's block (whole or a line range) or a folder's listing; undefined when it is not text. */
function readAttachment(
  real: string,
  abs: string,
  path: string,
  folder: boolean,
  limit: number,
  from?: number,
  to?: number,
): TextPart | undefined {
  if (folder) {
    const names = from === undefined ? listFolder(real) : undefined;
    return names ? { type: "text", text: folderBlock(path, names, limit) } : undefined;
  }
  let read: ReturnType<typeof readRegularFile>;
  try {
    read = readRegularFile(real, MAX_ATTACH_BYTES);
  } catch {
    return undefined;
  }
  if (read.data.includes(0)) return undefined;
  const block = fileBlock(path, read.data.toString("utf8"), limit, from, to);
  return block.whole
    ? { type: "text", text: block.text, attached: { path: abs, mtimeMs: read.stats.mtimeMs } }
    : { type: "text", text: block.text };
}

/** The workspace an `@path` must stay in, and TERN_HOME, which it never reaches (§10). */
interface AttachPlace {
  cwd: string;
  home: string;
}

const attachReach = (abs: string, where: AttachPlace): PathReach =>
  pathReach(abs, { roots: [where.cwd], home: where.home });

/**
 * Prompt text, then a labelled block for each text file or folder it names with `@path`, then
 * the images it names (existing image files only) and `--image` files.
 */
export function buildPromptContent(
  text: string,
  cwd: string,
  imageFiles: string[],
  api: ProviderApi,
  opts: {
    textLimit?: number;
    pastedImages?: ReadonlyMap<string, Buffer>;
    /** `permissions.deny`: a file a `read_file` deny rule covers is not attached (R-WF-5). */
    deny?: readonly string[];
  } = {},
): ContentPart[] {
  const where: AttachPlace = { cwd, home: ternHomeOf() };
  const images: ContentPart[] = [];
  const texts: TextPart[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(/(?:^|\s)@(\S+)/g)) {
    const path = match[1];
    if (IMAGE_EXT.test(path)) {
      const pasted = opts.pastedImages?.get(path);
      images.push(pasted ? pastedImage(path, pasted, api) : readImageFile(path, cwd, api, where));
      continue;
    }
    if (seen.has(path)) continue;
    seen.add(path);
    const part = attachText(path, where, opts.textLimit ?? DEFAULT_TEXT_LIMIT, opts.deny ?? []);
    if (part) texts.push(part);
  }
  for (const file of imageFiles) images.push(readImageFile(file, cwd, api));
  return [{ type: "text", text }, ...texts, ...images];
}
