// `/model` without an id in the Ink UI (R-UI-28): the one picker (picker.ts) over the models to
// switch to — the current one, the configured ones, then the catalogue's — each with its context
// window and price per million tokens, the current one marked; Enter switches as `/model <id>`.
// Its ids are also what Tab completes after `/model ` (argument-completion.ts).
import { CATALOGUE, modelInfo } from "../config/catalogue.js";
import type { Config } from "../config/types.js";
import type { PickerState } from "./picker.js";

/** Every model id to offer: the current one, the configured ones, then the catalogue's, once each. */
export function modelIds(config: Config, current: string): string[] {
  const configured = [current, config.model, ...Object.keys(config.models ?? {})].filter(
    (id): id is string => typeof id === "string" && id !== "",
  );
  return [...new Set([...configured, ...Object.keys(CATALOGUE)])];
}

/** `200k`, `1M`, `128k`. */
function tokensShort(n: number): string {
  if (n >= 1_000_000) return `${Number((n / 1_000_000).toFixed(1))}M`;
  return `${Math.round(n / 1000)}k`;
}

/** `$3 / $15 per M` (input / output), `price ?` when unknown. */
function priceText(input: number, output: number): string {
  const usd = (n: number) => `$${Number(n.toFixed(3))}`;
  return `${usd(input)} / ${usd(output)} per M`;
}

export function modelPicker(config: Config, current: string): PickerState {
  return {
    purpose: "model",
    heading: "Switch model",
    verb: "switch",
    empty: "no models known",
    entries: modelIds(config, current).map((id) => {
      const { info } = modelInfo(id, config.models?.[id]);
      const price = info.pricing ? priceText(info.pricing.input, info.pricing.output) : "price ?";
      const facts = `${tokensShort(info.contextWindow)} window · ${price}${id === current ? " · current" : ""}`;
      return { id, title: id, facts: () => facts };
    }),
    query: "",
    selected: 0,
    current,
  };
}
