// The one place side questions meet a live session: its archive, system prompt and limit, and a
// request through `callModel` with the work model, no tools and no hosted tools (R-SIDE-1).
// Loaded through the face (engine/side.ts) with the first question.
import { ProviderError } from "../../provider/errors.js";
import type { NormalizedRequest } from "../../provider/types.js";
import { computeCost } from "../../vocab/cost.js";
import { requestLimitFor } from "../compaction/shrink-policy.js";
import type { SessionCore } from "../core.js";
import { callModel } from "../turn/model-call.js";
import { askThrough, type SideOptions, type SidePorts } from "./ask.js";
import type { SideResult } from "../door/side.js";

/** A side question of this session: its ports, taken now, and the question over them. */
export function askSessionSide(core: SessionCore, question: string, opts: SideOptions): Promise<SideResult> {
  return askThrough(sidePorts(core), question, opts);
}

export function sidePorts(core: SessionCore): SidePorts {
  // Taken now: a model switch queued meanwhile does not change the request being built.
  const model = core.model;
  const adapter = core.adapter;
  return {
    archive: core.fold.archive,
    system: core.system,
    limit: requestLimitFor(core.settings.autoCompactThreshold, model),
    send: async (messages, hooks) => {
      const request: NormalizedRequest = {
        model: model.name,
        system: core.system,
        tools: [],
        messages: core.requests.hydrateMessages(messages),
        maxOutputTokens: model.info.maxOutputTokens,
        images: model.info.images,
        ...(model.thinking !== "off" ? { thinking: model.thinking } : {}),
        cacheKey: core.id,
      };
      const result = await callModel(core.settings, adapter, request, {
        signal: hooks.signal,
        onEvent: (event) => {
          if (event.type === "text_delta" || event.type === "reasoning_delta")
            hooks.onEvent({ type: event.type, text: event.text });
        },
        onAttemptUsage: hooks.onAttemptUsage,
      });
      return { text: result.text, toolCalls: result.toolCalls.length };
    },
    cost: (usage) => computeCost(usage, model.info.pricing),
    isCancel: (err) => err instanceof ProviderError && err.errorClass === "cancelled",
  };
}
