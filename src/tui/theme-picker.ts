// `/theme` (R-UI-30): the one picker (picker.ts) over the themes, each drawn in its own colours as
// it is highlighted (a preview: the live region redraws in it); Enter keeps it, Esc puts the one
// before back. `/theme <name>` switches at once. The scrollback keeps the colours it was written in.
import { currentTheme, style, applyTheme } from "./ansi.js";
import type { PickerState } from "./picker.js";
import { THEMES, type ThemeName } from "./themes.js";

const ABOUT: Record<ThemeName, string> = {
  dark: "for dark backgrounds (the default)",
  light: "for light backgrounds",
  colorblind: "blue and orange for success and failure",
};

export function themePicker(): PickerState {
  const current = currentTheme();
  return {
    purpose: "theme",
    heading: "Theme (a preview as you move)",
    verb: "keep",
    empty: "",
    entries: (Object.keys(THEMES) as ThemeName[]).map((name) => ({
      id: name,
      title: name,
      facts: () =>
        `${ABOUT[name]} · ${style.red("error")} ${style.green("added")} ${style.yellow("warning")} ${style.cyan("prompt")} ${style.gray("hint")}`,
    })),
    query: "",
    selected: Math.max(0, (Object.keys(THEMES) as ThemeName[]).indexOf(current)),
    current,
  };
}

/** The highlighted theme drawn now (the picker moved), so the person sees it before choosing. */
export function previewTheme(picker: PickerState, shownIds: string[]): void {
  const id = shownIds[Math.min(picker.selected, shownIds.length - 1)];
  if (id && id in THEMES) applyTheme(id as ThemeName);
}

/** Esc: the theme in force before the picker opened. */
export function restoreTheme(picker: PickerState): void {
  if (picker.current && picker.current in THEMES) applyTheme(picker.current as ThemeName);
}

export function isTheme(name: string | undefined): name is ThemeName {
  return name !== undefined && name in THEMES;
}
