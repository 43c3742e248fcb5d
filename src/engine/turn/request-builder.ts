// Model requests from the model context: the session's model, system message and tools, and the
// messages with their images' bytes loaded. Images reach the record as attachment refs (stored
// once by content hash); their bytes are cached here so a long session reads each file once.
import type { ResolvedModel } from "../../config/types.js";
import type { NormalizedRequest } from "../../provider/types.js";
import { loadImage, storeImage } from "../../record/attachments.js";
import type { RecordContentPart } from "../../record/types.js";
import type { ContentPart, ImagePart, Message, ToolSpec } from "../../vocab/messages.js";

export class RequestBuilder {
  private readonly imageCache = new Map<string, string>();

  constructor(
    private readonly dir: string,
    private readonly sessionId: string,
  ) {}

  /** The request for the next round, from a snapshot of the model context (R-TURN-1). */
  build(
    model: ResolvedModel,
    system: string,
    tools: ToolSpec[],
    messages: readonly Message[],
  ): NormalizedRequest {
    return {
      model: model.name,
      system,
      tools,
      messages: this.hydrateMessages(messages),
      maxOutputTokens: model.info.maxOutputTokens,
      images: model.info.images,
      ...modelRequestFields(model, this.sessionId),
    };
  }

  /** Images in the fold carry only their attachment ref; load their bytes once and reuse them. */
  hydrateMessages(messages: readonly Message[]): Message[] {
    const needs = messages.some((m) => m.role !== "assistant" && m.content.some((p) => p.type === "image"));
    if (!needs) return messages as Message[];
    return messages.map((m) => {
      if (m.role === "assistant" || !m.content.some((p) => p.type === "image")) return m;
      return { ...m, content: m.content.map((p) => (p.type === "image" ? this.hydrateImage(p) : p)) };
    });
  }

  /** Images go to attachments/ once (by content hash); the record keeps only the ref. */
  storeContent(content: ContentPart[]): RecordContentPart[] {
    return content.map((part) => {
      if (part.type === "text") return part;
      const ref = part.ref ?? storeImage(this.dir, Buffer.from(part.data, "base64"), part.mediaType);
      this.imageCache.set(ref, part.data);
      return { type: "image", mediaType: part.mediaType, ref };
    });
  }

  private hydrateImage(part: ImagePart): ContentPart {
    if (part.data || !part.ref) return part;
    let data = this.imageCache.get(part.ref);
    if (data === undefined) {
      const loaded = loadImage(this.dir, part.ref);
      if (!loaded) return { type: "text", text: `[image ${part.ref} is no longer available]` };
      data = loaded.data;
      this.imageCache.set(part.ref, data);
    }
    return { ...part, data };
  }
}

/** What the model's settings add to every request: thinking level, hosted tools, cache key (R-PROV-9..11). */
export function modelRequestFields(
  model: ResolvedModel,
  sessionId: string,
): Pick<NormalizedRequest, "thinking" | "hostedTools" | "cacheKey"> {
  const fields: Pick<NormalizedRequest, "thinking" | "hostedTools" | "cacheKey"> = { cacheKey: sessionId };
  if (model.thinking !== "off") fields.thinking = model.thinking;
  if (model.hostedTools.length > 0) fields.hostedTools = [...model.hostedTools];
  return fields;
}
