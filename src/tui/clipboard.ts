// Ctrl+V in the composer (R-UI-21): an image on the clipboard becomes `@clipboard-N.png` (`.jpg`,
// `.webp` or `.gif` when it is one of those) at the cursor, attached to the prompt that sends it
// the way an `@image.png` file is (turn-runner.ts hands these bytes to buildPromptContent); text
// goes in as a paste; otherwise one line says why nothing came. The images stay known for the whole process, like large pastes, so a
// queued or recalled prompt that names one still sends it, and are kept under TERN_HOME
// (clipboard-store.ts), so one recalled from history in a later process does too.
import { sniffImageType } from "../commands/prompt-input.js";
import { IMAGE_LIMIT_BYTES } from "../config/image-limits.js";
import type { ResolvedModel } from "../config/types.js";
import { type ClipboardRead, readClipboard } from "./clipboard-read.js";
import type { ClipboardStore } from "./clipboard-store.js";

export interface ClipboardDeps {
  /** Inserts text at the composer's cursor. */
  insert(text: string): void;
  /** Text from the clipboard, as a bracketed paste would give it. */
  paste(text: string): void;
  print(kind: "info" | "error", text: string): void;
  /** What the current model takes (`imageInput`). */
  imageInput(): ImageInput;
  /** The character before the cursor, so the `@` token starts a word. */
  charBeforeCursor(): string;
  /** Where images are kept for later processes; without one they live in this process only. */
  store?: ClipboardStore;
}

export interface ImageInput {
  /** The provider's limit per image, in bytes. */
  limit: number;
  /** False when the model is not known to take images: it would get a placeholder instead. */
  accepted: boolean;
  modelId: string;
}

export function imageInputOf(model: ResolvedModel): ImageInput {
  return { limit: IMAGE_LIMIT_BYTES[model.endpoint.api], accepted: model.info.images, modelId: model.id };
}

/** `640×480` from a PNG's header, or undefined when the bytes are no PNG. */
function pngSize(bytes: Buffer): string | undefined {
  if (bytes.length < 24 || bytes.readUInt32BE(0) !== 0x89504e47) return undefined;
  return `${bytes.readUInt32BE(16)}×${bytes.readUInt32BE(20)}`;
}

/** The file extension the bytes really are, so the `@` name says what is attached. */
function extension(bytes: Buffer): string {
  const type = sniffImageType(bytes);
  if (type === "image/jpeg") return "jpg";
  return type ? type.slice("image/".length) : "png";
}

/** `3 KB`, `7.2 MB`. */
const size = (n: number) =>
  n < 1024 * 1024 ? `${Math.ceil(n / 1024)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;

export class ClipboardPaste {
  /** `clipboard-N.png` → the image's bytes. */
  readonly images = new Map<string, Buffer>();
  private reading = false;

  constructor(
    private readonly deps: ClipboardDeps,
    private readonly read: () => Promise<ClipboardRead> = () => readClipboard(),
  ) {}

  async paste(): Promise<void> {
    // A second Ctrl+V while the tools still run would attach the same image twice.
    if (this.reading) return;
    this.reading = true;
    let found: ClipboardRead;
    try {
      found = await this.read();
    } finally {
      this.reading = false;
    }
    if (found.kind === "none") return this.deps.print("info", found.message);
    if (found.kind === "text") return this.deps.paste(found.text.replace(/\r\n?/g, "\n"));
    const input = this.deps.imageInput();
    const limit = input.limit;
    if (found.bytes.length > limit) {
      this.deps.print(
        "error",
        `Ctrl+V: the clipboard image is ${size(found.bytes.length)}, over the provider's ${size(limit)} limit per image`,
      );
      return;
    }
    const n = Math.max(this.images.size + 1, this.deps.store?.nextNumber() ?? 0);
    const name = `clipboard-${n}.${extension(found.bytes)}`;
    this.images.set(name, found.bytes);
    this.deps.store?.save(name, found.bytes);
    const before = this.deps.charBeforeCursor();
    this.deps.insert(`${before && !/\s/.test(before) ? " " : ""}@${name} `);
    const pixels = pngSize(found.bytes);
    // Sent anyway (the catalogue may not know the model), but said: the model gets a placeholder.
    const unseen = input.accepted
      ? ""
      : `; ${input.modelId} takes no images as configured (set models["${input.modelId}"].images to true to send it)`;
    this.deps.print(
      "info",
      `attached @${name} from the clipboard (${pixels ? `${pixels}, ` : ""}${size(found.bytes.length)}, via ${found.via})${unseen}`,
    );
  }

  /** The pasted images a prompt names: this process's, else kept ones (a prompt from history). */
  imagesFor(text: string): ReadonlyMap<string, Buffer> {
    const found = new Map<string, Buffer>();
    for (const m of text.matchAll(/(?:^|\s)@(clipboard-\d+\.[a-z]+)(?=\s|$)/g)) {
      const bytes = this.images.get(m[1]) ?? this.deps.store?.load(m[1]);
      if (bytes) found.set(m[1], bytes);
    }
    return found;
  }
}
