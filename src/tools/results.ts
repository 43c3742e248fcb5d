// Small constructors for tool results, so every tool words outcomes the same way.
import type { ToolResult } from "./types.js";
import type { ContentPart } from "../vocab/messages.js";

export function ok(text: string, extra: ContentPart[] = []): ToolResult {
  return { outcome: "ok", content: [{ type: "text", text }, ...extra] };
}

export function fail(text: string): ToolResult {
  return { outcome: "error", content: [{ type: "text", text }] };
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code && !err.message.includes(code) ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}

/** Cuts a string to `max` characters, saying how much was cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}
