// Typed prompt input, shared by every front end that takes text from the user: the text (+
// `--image` files) becomes message content; `@path/to/img.png` and `--image` attach PNG, JPEG,
// GIF or WebP files (SPEC §10), refused over the provider's limit.
import { resolve } from "node:path";
import { IMAGE_LIMIT_BYTES } from "../config/image-limits.js";
import type { ProviderApi } from "../config/types.js";
import { FileTooLargeError, NotRegularFileError, readRegularFile } from "../tools/builtin/safe-read.js";
import type { ContentPart } from "../vocab/messages.js";

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

function readImageFile(path: string, cwd: string, api: ProviderApi): ContentPart {
  const abs = resolve(cwd, path);
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
  const mediaType = sniffImageType(bytes);
  if (!mediaType) throw new InputError(`image ${path}: not a PNG, JPEG, GIF or WebP file`);
  return { type: "image", mediaType, data: bytes.toString("base64") };
}

/** Prompt text plus the images it names with `@path` (existing image files only) and `--image` files. */
export function buildPromptContent(
  text: string,
  cwd: string,
  imageFiles: string[],
  api: ProviderApi,
): ContentPart[] {
  const images: ContentPart[] = [];
  for (const match of text.matchAll(/(?:^|\s)@(\S+)/g)) {
    const path = match[1];
    if (!IMAGE_EXT.test(path)) continue;
    images.push(readImageFile(path, cwd, api));
  }
  for (const file of imageFiles) images.push(readImageFile(file, cwd, api));
  return [{ type: "text", text }, ...images];
}
