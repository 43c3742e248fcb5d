// A markdown code fence for any text: longer than every backtick run in it, so the block the
// text is shown in cannot end early (an `@file` attachment, an attached MCP resource).

export function codeFence(text: string): string {
  let longest = 2;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return "`".repeat(longest + 1);
}
