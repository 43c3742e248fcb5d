// Reading the system clipboard for Ctrl+V (R-UI-21) through the platform's own tools, chosen at
// paste time (a session may outlive the display it started on): Wayland `wl-paste`, X11
// `xclip`, macOS `pngpaste` or `osascript` (+ `pbpaste` for text), WSL `powershell.exe`. An
// image wins over text; each tool is asked what the clipboard holds before it is read, so an
// empty clipboard is told apart from a broken tool.
import { execFile } from "node:child_process";
import { programPath } from "../programs/program-path.js";

export type ClipboardRead =
  | { kind: "image"; bytes: Buffer; via: string }
  | { kind: "text"; text: string; via: string }
  /** Nothing to paste: one line saying why. */
  | { kind: "none"; message: string };

interface Ran {
  ok: boolean;
  stdout: Buffer;
  stderr: string;
}

/** xclip can wait for a clipboard owner that never answers: a paste gives up rather than hang. */
const TOOL_TIMEOUT_MS = 3000;
const MAX_BYTES = 64 * 1024 * 1024;

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  // The clipboard tools are programs tern runs (§10): from absolute PATH entries outside the workspace.
  const file = programPath(cmd, { path: env.PATH ?? "" });
  if (!file) return Promise.resolve({ ok: false, stdout: Buffer.alloc(0), stderr: `${cmd}: not found` });
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { encoding: "buffer", timeout: TOOL_TIMEOUT_MS, maxBuffer: MAX_BYTES, env },
      (err, stdout, stderr) => resolve({ ok: !err, stdout, stderr: stderr.toString("utf8").trim() }),
    );
  });
}

function onPath(name: string, env: NodeJS.ProcessEnv): boolean {
  return programPath(name, { path: env.PATH ?? "" }) !== undefined;
}

/** What one tool found: an image, text, nothing (`undefined`), or its failure as a line. */
type Found =
  | { image: Buffer; via?: string }
  | { text: string; via?: string }
  | { failed: string }
  | undefined;

interface Tool {
  name: string;
  read(env: NodeJS.ProcessEnv): Promise<Found>;
}

const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];
const TEXT_TYPES = ["UTF8_STRING", "text/plain;charset=utf-8", "text/plain", "STRING", "TEXT"];

const failed = (name: string, r: Ran): Found => ({
  failed: `${name} failed${r.stderr ? `: ${r.stderr.split("\n")[0]}` : ""}`,
});

/** X11 and Wayland tools list the clipboard's types (TARGETS) first, then read the one wanted. */
function listingTool(name: string, list: string[], read: (type: string) => string[], empty: RegExp): Tool {
  return {
    name,
    async read(env) {
      const listed = await run(name, list, env);
      if (!listed.ok) return empty.test(listed.stderr) ? undefined : failed(name, listed);
      const types = listed.stdout
        .toString("utf8")
        .split("\n")
        .map((t) => t.trim());
      // PNG first (what screenshots and browsers offer), then the other types a provider takes.
      const imageType = IMAGE_TYPES.find((t) => types.includes(t));
      if (imageType) {
        const image = await run(name, read(imageType), env);
        return image.ok && image.stdout.length > 0 ? { image: image.stdout } : failed(name, image);
      }
      const textType = TEXT_TYPES.find((t) => types.includes(t));
      if (!textType) return undefined;
      const text = await run(name, read(textType), env);
      return text.ok ? { text: text.stdout.toString("utf8") } : failed(name, text);
    },
  };
}

// wl-paste says "No selection" / "Nothing is copied" for an empty clipboard; xclip names the
// target it could not get.
const wlPaste = listingTool(
  "wl-paste",
  ["--list-types"],
  (type) => ["--no-newline", "--type", type],
  /no selection|nothing is copied|no suitable type/i,
);
const xclip = listingTool(
  "xclip",
  ["-selection", "clipboard", "-t", "TARGETS", "-o"],
  (type) => ["-selection", "clipboard", "-t", type, "-o"],
  /cannot convert|no selection|target .* not available/i,
);

/** macOS: `pngpaste -` when installed, else AppleScript's PNG class as hex; `pbpaste` for text. */
const macos: Tool = {
  name: "osascript",
  async read(env) {
    if (onPath("pngpaste", env)) {
      const png = await run("pngpaste", ["-"], env);
      if (png.ok && png.stdout.length > 0) return { image: png.stdout, via: "pngpaste" };
    } else {
      const script = await run("osascript", ["-e", "the clipboard as «class PNGf»"], env);
      const hex = /«data PNGf([0-9A-Fa-f]+)»/.exec(script.stdout.toString("utf8"))?.[1];
      if (script.ok && hex) return { image: Buffer.from(hex, "hex") };
    }
    const text = await run("pbpaste", [], env);
    return text.ok && text.stdout.length > 0
      ? { text: text.stdout.toString("utf8"), via: "pbpaste" }
      : undefined;
  },
};

/** WSL: Windows' clipboard through PowerShell; the image comes back as base64 PNG on stdout. */
const IMAGE_SCRIPT = [
  "$i = Get-Clipboard -Format Image",
  "if ($i) { $m = New-Object System.IO.MemoryStream;",
  "$i.Save($m, [System.Drawing.Imaging.ImageFormat]::Png);",
  "[Convert]::ToBase64String($m.ToArray()) }",
].join(" ");
const powershell: Tool = {
  name: "powershell.exe",
  async read(env) {
    const ps = (command: string) =>
      run("powershell.exe", ["-NoProfile", "-NonInteractive", "-Command", command], env);
    const image = await ps(IMAGE_SCRIPT);
    if (!image.ok) return failed("powershell.exe", image);
    const b64 = image.stdout.toString("utf8").trim();
    if (b64) return { image: Buffer.from(b64, "base64") };
    const text = await ps("Get-Clipboard -Raw");
    const value = text.stdout.toString("utf8").replace(/\r\n/g, "\n");
    // Get-Clipboard ends what it prints with a line break of its own.
    return text.ok && value.trim() ? { text: value.replace(/\n$/, "") } : undefined;
  },
};

/** The tools that can reach this session's clipboard now, most direct first. */
export function clipboardTools(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): Tool[] {
  if (platform === "darwin") return [macos];
  const tools: Tool[] = [];
  if (env.WAYLAND_DISPLAY && onPath("wl-paste", env)) tools.push(wlPaste);
  if (env.DISPLAY && onPath("xclip", env)) tools.push(xclip);
  if ((env.WSL_DISTRO_NAME || env.WSL_INTEROP) && onPath("powershell.exe", env)) tools.push(powershell);
  return tools;
}

function noTool(env: NodeJS.ProcessEnv): string {
  if (env.WSL_DISTRO_NAME || env.WSL_INTEROP) return "powershell.exe is not on PATH";
  if (env.WAYLAND_DISPLAY) return "install wl-clipboard (wl-paste) to paste images";
  if (env.DISPLAY) return "install xclip to paste images";
  return "no display (X11 or Wayland) to read a clipboard from";
}

/** The clipboard's image, else its text, else why there is nothing to paste. */
export async function readClipboard(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<ClipboardRead> {
  const tools = clipboardTools(env, platform);
  if (tools.length === 0) return { kind: "none", message: `Ctrl+V: ${noTool(env)}` };
  const failures: string[] = [];
  for (const tool of tools) {
    const found = await tool.read(env);
    if (!found) continue;
    if ("image" in found) return { kind: "image", bytes: found.image, via: found.via ?? tool.name };
    if ("text" in found) return { kind: "text", text: found.text, via: found.via ?? tool.name };
    failures.push(found.failed);
  }
  if (failures.length > 0) return { kind: "none", message: `Ctrl+V: ${failures.join("; ")}` };
  return {
    kind: "none",
    message: `Ctrl+V: the clipboard holds no image or text (${tools.map((t) => t.name).join(", ")})`,
  };
}
