#!/usr/bin/env bash
# The Action's second step: `tern run --json` in the workspace, then its answer, `tern diff` and
# the cost to the step outputs and the job summary (summary.mjs). The job fails as tern exits.
set -uo pipefail
tern=(node "$GITHUB_ACTION_PATH/dist/tern.js")
args=(run --json --sandbox "${INPUT_SANDBOX:-workspace-write}")
[ -n "${INPUT_MODEL:-}" ] && args+=(--model "$INPUT_MODEL")
[ -n "${INPUT_BASE_URL:-}" ] && args+=(--base-url "$INPUT_BASE_URL")
[ -n "${INPUT_OUTPUT_SCHEMA:-}" ] && args+=(--output-schema "$INPUT_OUTPUT_SCHEMA")
while IFS= read -r rule; do
  [ -n "$rule" ] && args+=(--allow "$rule")
done <<<"${INPUT_ALLOW:-}"
# Edits inside the workspace run unasked; a write outside it, or into .git/.tern, still asks and is
# therefore refused (a headless run approves nothing else).
for tool in write_file edit_file edit_lineno; do args+=(--allow "$tool(**)"); done
work="$(mktemp -d "${RUNNER_TEMP:-/tmp}/tern-action.XXXXXX")"
"${tern[@]}" "${args[@]}" -- "$INPUT_PROMPT" >"$work/events.jsonl"
code=$?
"${tern[@]}" diff >"$work/diff.txt" 2>/dev/null || true
node "$GITHUB_ACTION_PATH/action/summary.mjs" "$work/events.jsonl" "$work/diff.txt" "$code"
exit "$code"
