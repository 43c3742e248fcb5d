// The completion menu under the composer (R-UI-14): `/` commands with their descriptions, or
// `@` workspace paths; a window of rows around the selection so it never grows past a few lines.
import { Box, Text } from "ink";
import type { Menu } from "./completion.js";

const ROWS = 8;

export function CompletionMenu({ menu, cols }: { menu: Menu | null; cols: number }) {
  if (!menu) return null;
  const first = Math.max(0, Math.min(menu.index - Math.floor(ROWS / 2), menu.items.length - ROWS));
  const shown = menu.items.slice(first, first + ROWS);
  const labelWidth = Math.min(32, Math.max(...shown.map((i) => i.label.length)) + 2);
  const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, Math.max(0, n - 1))}…` : s);
  return (
    <Box flexDirection="column" paddingX={1}>
      {shown.map((item, i) => {
        const selected = first + i === menu.index;
        const label = clip(item.label, labelWidth - 1).padEnd(labelWidth);
        return (
          <Text key={item.value} color={selected ? "cyan" : undefined} bold={selected}>
            {selected ? "› " : "  "}
            {label}
            <Text color="gray">{clip(item.detail, Math.max(0, cols - labelWidth - 6))}</Text>
          </Text>
        );
      })}
      <Text color="gray">
        {menu.items.length > ROWS ? `${menu.index + 1}/${menu.items.length} · ` : ""}↑/↓ choose · Tab complete
        · Enter {menu.kind === "command" ? "run" : "insert"} · Esc close
      </Text>
    </Box>
  );
}

/** What the composer draws for its text: a tab as spaces (a raw tab would break the box). */
export function visible(text: string): string {
  return text
    .replace(/\t/g, "  ")
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) => `^${String.fromCharCode(c.charCodeAt(0) ^ 64)}`);
}
