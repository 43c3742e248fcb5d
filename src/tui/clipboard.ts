// Ctrl+V in the composer (R-UI-21): an image on the clipboard becomes `@clipboard-N.png` (`.jpg`,
// `.webp` or `.gif` when it is one of those) at the cursor, attached to the prompt that sends it
// the way an `@image.png` file is (turn-runner.ts hands these bytes to buildPromptContent); text
// goes in as a paste; otherwise one line says why nothing came. The images stay known for the whole process, like large pastes, so a
// queued or recalled prompt that names one still sends it.
import { sniffImageType } from "../commands/prompt-input.js";
import { type ClipboardRead, readClipboard } from "./clipboard-read.js";

export interface ClipboardDeps {
  /** Inserts text at the composer's cursor. */
  insert(text: string): void;
  /** Text from the clipboard, as a bracketed paste would give it. */
  paste(text: string): void;
  print(kind: "info" | "error", text: string): void;
  /** The current provider's limit per image, in bytes. */
  imageLimit(): number;
  /** The character before the cursor, so the `@` token starts a word. */
  charBeforeCursor(): string;
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
    const limit = this.deps.imageLimit();
    if (found.bytes.length > limit) {
      this.deps.print(
        "error",
        `Ctrl+V: the clipboard image is ${size(found.bytes.length)}, over the provider's ${size(limit)} limit per image`,
      );
      return;
    }
    const name = `clipboard-${this.images.size + 1}.${extension(found.bytes)}`;
    this.images.set(name, found.bytes);
    const before = this.deps.charBeforeCursor();
    this.deps.insert(`${before && !/\s/.test(before) ? " " : ""}@${name} `);
    const pixels = pngSize(found.bytes);
    this.deps.print(
      "info",
      `attached @${name} from the clipboard (${pixels ? `${pixels}, ` : ""}${size(found.bytes.length)}, via ${found.via})`,
    );
  }
}
