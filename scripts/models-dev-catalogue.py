#!/usr/bin/env python3
"""Writes src/config/catalogue-data.json from a checkout of models.dev (R-PROV-16).

models.dev (https://github.com/anomalyco/models.dev, formerly sst/models.dev) keeps one TOML file per
model under providers/<provider>/models/, some inheriting a root models/<vendor>/<model>.toml by
`base_model` (deep merge, then `base_model_omit`), as its packages/core/src/generate.ts does. Only
the providers tern has built in are kept, and only models that call tools and answer in text,
trimmed to what tern reads: window, output limit, image input, reasoning, prices with their
long-context tiers, and the edit tool. Run it after pulling models.dev; tern never fetches it:

    python3 scripts/models-dev-catalogue.py /path/to/models.dev
    npx biome format --write src/config/catalogue-data.json
"""

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

# models.dev provider id -> tern provider id
PROVIDERS = {
    "openai": "openai",
    "anthropic": "anthropic",
    "google": "google",
    "google-vertex": "vertex",
    "google-vertex-anthropic": "vertex",
    "amazon-bedrock": "bedrock",
    "azure": "azure",
    "deepseek": "deepseek",
    "groq": "groq",
    "openrouter": "openrouter",
}


def merge(base, override):
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def omit(target, paths):
    for path in paths:
        parts = path.split(".")
        node = target
        for part in parts[:-1]:
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, dict):
            node.pop(parts[-1], None)


def load(root: Path, path: Path, bases: dict) -> dict:
    data = tomllib.loads(path.read_text())
    if "base_model" in data:
        base = bases[data["base_model"]]
        skip = data.pop("base_model_omit", [])
        del data["base_model"]
        data = merge(base, data)
        omit(data, skip)
    return data


def prices(cost: dict) -> dict:
    out = {"input": cost["input"], "output": cost["output"]}
    if "cache_read" in cost:
        out["cacheRead"] = cost["cache_read"]
    if "cache_write" in cost:
        out["cacheWrite"] = cost["cache_write"]
    return out


def entry(tern_provider: str, name: str, model: dict):
    if not model.get("tool_call"):
        return None
    modalities = model.get("modalities", {})
    if "text" not in modalities.get("output", ["text"]):
        return None
    limit = model.get("limit", {})
    window = limit.get("input") or limit.get("context")
    if not window or not limit.get("output"):
        return None
    # A few entries name an output limit over their window; the window bounds it.
    info = {"contextWindow": window, "maxOutputTokens": min(limit["output"], window)}
    info["images"] = "image" in modalities.get("input", [])
    if model.get("reasoning"):
        info["reasoning"] = True
    cost = model.get("cost")
    if isinstance(cost, dict) and "input" in cost and "output" in cost:
        pricing = prices(cost)
        tiers = []
        for tier in cost.get("tiers", []):
            size = tier.get("tier", {}).get("size")
            if size and "input" in tier and "output" in tier:
                tiers.append({"above": size, **prices(tier)})
        if tiers:
            pricing["tiers"] = sorted(tiers, key=lambda t: t["above"])
        info["pricing"] = pricing
    # Codex-style models are trained on apply_patch (R-EDIT): OpenAI's gpt-5 family and codex models.
    bare = name.split("/")[-1]
    if (tern_provider in ("openai", "azure") or name.startswith("openai/")) and re.match(
        r"(gpt-5|.*codex)", bare
    ):
        info["editTool"] = "apply_patch"
    return info


def main() -> None:
    root = Path(sys.argv[1])
    out = Path(__file__).resolve().parent.parent / "src/config/catalogue-data.json"
    bases = {}
    for path in sorted((root / "models").rglob("*.toml")):
        bases[str(path.relative_to(root / "models"))[:-5]] = tomllib.loads(path.read_text())
    models = {}
    for source, tern in PROVIDERS.items():
        for path in sorted((root / "providers" / source / "models").rglob("*.toml")):
            name = str(path.relative_to(root / "providers" / source / "models"))[:-5]
            info = entry(tern, name, load(root, path, bases))
            if info is not None:
                models[f"{tern}/{name}"] = info
    commit, date = subprocess.run(
        ["git", "-C", str(root), "log", "-1", "--format=%H %cs"], capture_output=True, text=True, check=True
    ).stdout.split()
    data = {
        "source": "models.dev (github.com/anomalyco/models.dev)",
        "date": date,
        "commit": commit,
        "models": models,
    }
    lines = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}" for k, v in models.items())
    head = json.dumps({k: v for k, v in data.items() if k != "models"})[:-1]
    out.write_text(f'{head}, "models": {{\n{lines}\n}}}}\n')
    print(f"{len(models)} models from models.dev {date} ({commit[:10]}) -> {out}")


if __name__ == "__main__":
    main()
