// Small conversions between the engine's internal shapes and the event / record shapes.
import type { UsageFields } from "./door/events.js";
import type { Usage } from "../vocab/usage.js";

export function toUsageFields(usage: Usage): UsageFields {
  return {
    prompt: usage.prompt,
    completion: usage.completion,
    cache_read: usage.cacheRead,
    cache_write: usage.cacheWrite,
  };
}

/** Content as one string for events and terminal output; images become a short marker. */
export function contentToText(
  content: ReadonlyArray<{ type: string; text?: string; mediaType?: string }>,
): string {
  return content
    .map((part) => (part.type === "text" ? (part.text ?? "") : `[image ${part.mediaType ?? ""}]`.trim()))
    .join("\n");
}
