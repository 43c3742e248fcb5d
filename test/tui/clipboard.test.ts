// Ctrl+V clipboard paste (R-UI-21): an image on the clipboard is attached to the next prompt as
// `@clipboard-N.png`, text pastes as text, and with no way to reach a clipboard one line says
// why. X11 is real: an Xvfb server and xclip holding a PNG, pasted in a real pseudo-terminal.
// Wayland (wl-paste), macOS (pngpaste, osascript) and WSL (powershell.exe) are fakes on the
// PATH that answer the way those tools do.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ClipboardPaste } from "../../src/tui/clipboard.js";
import { readClipboard } from "../../src/tui/clipboard-read.js";
import { openaiText } from "../support/openai-script.js";
import type { VTerm } from "../support/vterm.js";
import { useTui } from "./support.js";

const t = useTui();
const CTRL_V = "\x16";
/** A valid 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const VISION = { models: { "local/mock-1": { images: true } } };

const has = (cmd: string) => {
  try {
    execFileSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};
const haveX = has("Xvfb") && has("xclip");

/** A folder of fake tools (shell scripts) to put first on PATH. */
function fakeBin(tools: Record<string, string>): string {
  const dir = join(t.dirs.root, `bin-${Object.keys(tools).join("-")}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "clip.png"), PNG);
  for (const [name, body] of Object.entries(tools)) {
    const file = join(dir, name);
    writeFileSync(file, `#!/bin/sh\nHERE="$(dirname "$0")"\n${body}\n`);
    chmodSync(file, 0o755);
  }
  return dir;
}

/** The env a paste sees: only the display variables a test names, fakes first on PATH. */
function env(bin: string | undefined, vars: Record<string, string> = {}): Record<string, string | undefined> {
  return {
    DISPLAY: undefined,
    WAYLAND_DISPLAY: undefined,
    WSL_DISTRO_NAME: undefined,
    WSL_INTEROP: undefined,
    PATH: bin ? `${bin}:/usr/bin:/bin` : "/usr/bin:/bin",
    ...vars,
  };
}

/** The prompt's parts as the fake provider received them. */
function lastUserContent(): any[] {
  const body = t.provider.requests.at(-1)?.body as any;
  return body.messages.filter((m: any) => m.role === "user").at(-1).content;
}

async function pasteAndSend(vt: VTerm, prompt: string): Promise<void> {
  await vt.write(CTRL_V);
  await vt.waitForScreen(/│ › (?:.* )?@clipboard-1\.png *│/);
  await vt.type(prompt);
  await vt.press("enter");
  await vt.waitFor(/— turn 1 · completed/);
}

const WL_PASTE = `case "$*" in
  --list-types) printf 'image/png\\ntext/plain;charset=utf-8\\n' ;;
  *image/png*) cat "$HERE/clip.png" ;;
  *) printf 'clipboard text' ;;
esac`;

describe("Ctrl+V: fakes on the PATH", () => {
  it("a pasted image recalled from history in a later process is still sent; kept under TERN_HOME per session", async () => {
    t.provider.enqueue(openaiText("a tiny image"), openaiText("the same image again"));
    const bin = fakeBin({ "wl-paste": WL_PASTE });
    const first = await t.start([], VISION, undefined, env(bin, { WAYLAND_DISPLAY: "wayland-0" }));
    await first.type("look at");
    await pasteAndSend(first, "what is it?");
    await first.close();
    const root = join(t.dirs.home, "clipboard");
    const [workspace] = readdirSync(root);
    const [session] = readdirSync(join(root, workspace));
    expect(readdirSync(join(root, workspace, session))).toEqual(["clipboard-1.png"]);

    // A new process (a new session), no clipboard tool at all: Up brings the prompt back.
    const later = await t.start([], VISION, undefined, env(undefined));
    await later.press("up");
    await later.waitForScreen(/│ › look at @clipboard-1\.png what is it\? *│/);
    await later.press("enter");
    await later.waitFor(/— turn 1 · completed/);
    const content = lastUserContent();
    expect(content[0]).toEqual({ type: "text", text: "look at @clipboard-1.png what is it?" });
    expect(content[1]).toEqual({
      type: "image_url",
      image_url: { url: `data:image/png;base64,${PNG.toString("base64")}` },
    });
  });

  it("Wayland: wl-paste's image goes with the prompt as an image part", async () => {
    t.provider.enqueue(openaiText("a tiny image"));
    const bin = fakeBin({ "wl-paste": WL_PASTE });
    const vt = await t.start([], VISION, undefined, env(bin, { WAYLAND_DISPLAY: "wayland-0" }));
    await vt.type("look at");
    await pasteAndSend(vt, "what is it?");
    expect(vt.text()).toContain("attached @clipboard-1.png from the clipboard (1×1, 1 KB, via wl-paste)");
    const content = lastUserContent();
    expect(content[0]).toEqual({ type: "text", text: "look at @clipboard-1.png what is it?" });
    expect(content[1]).toEqual({
      type: "image_url",
      image_url: { url: `data:image/png;base64,${PNG.toString("base64")}` },
    });
  });

  it("with no display and no tool, one line says why", async () => {
    const vt = await t.start([], {}, undefined, env(undefined));
    await vt.write(CTRL_V);
    await vt.waitFor("Ctrl+V: no display (X11 or Wayland) to read a clipboard from");
    // A display but no tool for it anywhere on PATH.
    const none = fakeBin({});
    expect(await readClipboard(env(undefined, { DISPLAY: ":77", PATH: none }), "linux")).toEqual({
      kind: "none",
      message: "Ctrl+V: install xclip to paste images",
    });
    expect(
      await readClipboard(env(undefined, { WAYLAND_DISPLAY: "wayland-0", PATH: none }), "linux"),
    ).toEqual({
      kind: "none",
      message: "Ctrl+V: install wl-clipboard (wl-paste) to paste images",
    });
  });

  it("macOS: pngpaste when installed, else osascript's PNG data; pbpaste for text", async () => {
    const png = fakeBin({ pngpaste: 'cat "$HERE/clip.png"' });
    expect(await readClipboard(env(png), "darwin")).toEqual({ kind: "image", bytes: PNG, via: "pngpaste" });
    const hex = PNG.toString("hex").toUpperCase();
    const osa = fakeBin({ osascript: `printf '«data PNGf${hex}»\\n'` });
    expect(await readClipboard(env(osa), "darwin")).toEqual({ kind: "image", bytes: PNG, via: "osascript" });
    // No image: osascript fails as it does ("Can't make … into type «class PNGf»"), pbpaste has text.
    const text = fakeBin({
      osascript: "echo 'execution error' >&2; exit 1",
      pbpaste: "printf 'from the Mac'",
    });
    expect(await readClipboard(env(text), "darwin")).toEqual({
      kind: "text",
      text: "from the Mac",
      via: "pbpaste",
    });
  });

  it("WSL: PowerShell's Get-Clipboard image comes back as base64, text as text", async () => {
    const b64 = PNG.toString("base64");
    const image = fakeBin({
      "powershell.exe": `case "$*" in *"-Format Image"*) printf '${b64}\\r\\n' ;; *) printf 'win text\\r\\n' ;; esac`,
    });
    const wsl = { WSL_DISTRO_NAME: "Debian" };
    expect(await readClipboard(env(image, wsl), "linux")).toEqual({
      kind: "image",
      bytes: PNG,
      via: "powershell.exe",
    });
    const text = fakeBin({
      "powershell.exe": `case "$*" in *"-Format Image"*) ;; *) printf 'line one\\r\\nline two\\r\\n' ;; esac`,
    });
    expect(await readClipboard(env(text, wsl), "linux")).toEqual({
      kind: "text",
      text: "line one\nline two",
      via: "powershell.exe",
    });
    expect(await readClipboard(env(undefined, wsl), "linux")).toEqual({
      kind: "none",
      message: "Ctrl+V: powershell.exe is not on PATH",
    });
  });

  it("a JPEG-only clipboard is attached under a .jpg name; one over the provider's limit is refused", async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2048, 7)]);
    const bin = fakeBin({
      "wl-paste": `case "$*" in --list-types) echo image/jpeg ;; *image/jpeg*) cat "$HERE/clip.jpg" ;; esac`,
    });
    writeFileSync(join(bin, "clip.jpg"), jpeg);
    const shown: string[] = [];
    let composer = "";
    const clipboard = (limit: number, accepted = true) =>
      new ClipboardPaste(
        {
          insert: (text) => (composer += text),
          paste: (text) => (composer += text),
          print: (kind, text) => shown.push(`${kind}: ${text}`),
          imageInput: () => ({ limit, accepted, modelId: "local/tiny" }),
          charBeforeCursor: () => composer.slice(-1),
        },
        () => readClipboard(env(bin, { WAYLAND_DISPLAY: "wayland-0" }), "linux"),
      );
    const roomy = clipboard(5 * 1024 * 1024);
    await roomy.paste();
    expect(composer).toBe("@clipboard-1.jpg ");
    expect(roomy.images.get("clipboard-1.jpg")).toEqual(jpeg);
    expect(shown).toEqual(["info: attached @clipboard-1.jpg from the clipboard (3 KB, via wl-paste)"]);
    const tight = clipboard(1024);
    await tight.paste();
    expect(tight.images.size).toBe(0);
    expect(shown.at(-1)).toBe(
      "error: Ctrl+V: the clipboard image is 3 KB, over the provider's 1 KB limit per image",
    );
    // A model not known to take images still gets it attached, with a word on what it will see.
    composer = "";
    await clipboard(5 * 1024 * 1024, false).paste();
    expect(composer).toBe("@clipboard-1.jpg ");
    expect(shown.at(-1)).toBe(
      'info: attached @clipboard-1.jpg from the clipboard (3 KB, via wl-paste); local/tiny takes no images as configured (set models["local/tiny"].images to true to send it)',
    );
  });

  it("a failing tool is named with its error; an empty clipboard says so", async () => {
    const broken = fakeBin({ "wl-paste": "echo 'Failed to connect to a Wayland server' >&2; exit 1" });
    expect(await readClipboard(env(broken, { WAYLAND_DISPLAY: "wayland-0" }), "linux")).toEqual({
      kind: "none",
      message: "Ctrl+V: wl-paste failed: Failed to connect to a Wayland server",
    });
    const empty = fakeBin({ "wl-paste": "echo 'No selection' >&2; exit 1" });
    expect(await readClipboard(env(empty, { WAYLAND_DISPLAY: "wayland-0" }), "linux")).toEqual({
      kind: "none",
      message: "Ctrl+V: the clipboard holds no image or text (wl-paste)",
    });
  });
});

describe.skipIf(!haveX)("Ctrl+V on a real X server (Xvfb + xclip)", () => {
  const started: ChildProcess[] = [];
  // Newest first (xclip before its server); SIGTERM, so Xvfb removes its socket and lock file
  // and the next test's server does not find a stale display.
  afterEach(async () => {
    for (const child of started.splice(0).reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const gone = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await gone;
    }
  });

  /** Xvfb on a display it picks itself (-displayfd), so parallel runs never collide. */
  async function startX(): Promise<string> {
    const x = spawn("Xvfb", ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "320x240x24"], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    started.push(x);
    const display = await new Promise<string>((resolve, reject) => {
      let out = "";
      x.stdout?.on("data", (d) => {
        out += d;
        if (out.includes("\n")) resolve(`:${out.trim()}`);
      });
      x.once("exit", (code) => reject(new Error(`Xvfb exited (${code})`)));
    });
    return display;
  }

  /** xclip owns the clipboard in the foreground (-quiet) until killed. */
  async function own(display: string, type: string, data: Buffer | string): Promise<void> {
    const clip = spawn("xclip", ["-quiet", "-selection", "clipboard", "-t", type, "-i"], {
      env: { ...process.env, DISPLAY: display },
      stdio: ["pipe", "ignore", "ignore"],
    });
    started.push(clip);
    clip.stdin?.end(data);
    // Owned once xclip answers a TARGETS request.
    for (let i = 0; i < 100; i++) {
      try {
        const targets = execFileSync("xclip", ["-selection", "clipboard", "-t", "TARGETS", "-o"], {
          env: { ...process.env, DISPLAY: display },
          stdio: ["ignore", "pipe", "ignore"],
          timeout: 1000,
        }).toString();
        if (targets.includes(type)) return;
      } catch {
        // Not owned yet.
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error("xclip never took the clipboard");
  }

  it("attaches the PNG xclip holds to the next prompt", async () => {
    const display = await startX();
    await own(display, "image/png", PNG);
    t.provider.enqueue(openaiText("one pixel"));
    const vt = await t.start([], VISION, undefined, { DISPLAY: display, WAYLAND_DISPLAY: undefined });
    await pasteAndSend(vt, "what is this?");
    expect(vt.text()).toContain("attached @clipboard-1.png from the clipboard (1×1, 1 KB, via xclip)");
    const content = lastUserContent();
    expect(content[0]).toEqual({ type: "text", text: "@clipboard-1.png what is this?" });
    expect(content[1].image_url.url).toBe(`data:image/png;base64,${PNG.toString("base64")}`);
  });

  it("text on the clipboard pastes as text, not sent", async () => {
    const display = await startX();
    await own(display, "UTF8_STRING", "pasted from X");
    const vt = await t.start([], {}, undefined, { DISPLAY: display, WAYLAND_DISPLAY: undefined });
    await vt.type("note: ");
    await vt.write(CTRL_V);
    await vt.waitForScreen(/│ › note: pasted from X *│/);
    expect(t.provider.requests).toHaveLength(0);
  });
});

if (!haveX) it.skip("skipped: Xvfb or xclip is not installed (apt-get install xvfb xclip)", () => {});
