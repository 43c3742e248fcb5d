// The UI's colour themes (R-UI-30, `ui.theme` and `/theme`): `dark` (the colours tern always had,
// as 256-colour values light enough for a dark background), `light` (darker ones for a light
// background) and `colorblind` (Okabe–Ito's blue and orange in place of green and red, so success
// and failure differ for every common colour-vision deficiency). Each names the background its
// colours are chosen against; test/tui/themes.test.ts checks every one reaches WCAG's 4.5:1 on it.
// Colours are xterm 256-colour indices: their RGB values are fixed by the xterm palette
// (16–231 a 6×6×6 cube, 232–255 grays), unlike the 16 basic colours each terminal paints its own.
import type { ThemeName } from "../config/ui-schema.js";

export type { ThemeName };

/** The foreground colours the UI paints with (ansi.ts `style`). */
export const COLOUR_NAMES = ["red", "green", "yellow", "blue", "magenta", "cyan", "gray"] as const;
export type ColourName = (typeof COLOUR_NAMES)[number];

export interface Theme {
  /** `#rrggbb`: the background the colours are chosen against (a typical one of the kind). */
  background: string;
  /** 256-colour index of each foreground colour. */
  colours: Record<ColourName, number>;
  /** Background tints behind deleted and added diff lines (the terminal's own text colour on them). */
  delBg: number;
  addBg: number;
}

export const THEMES: Record<ThemeName, Theme> = {
  dark: {
    background: "#1e1e1e",
    colours: { red: 203, green: 114, yellow: 221, blue: 111, magenta: 176, cyan: 80, gray: 245 },
    delBg: 52,
    addBg: 22,
  },
  light: {
    background: "#ffffff",
    colours: { red: 124, green: 22, yellow: 94, blue: 25, magenta: 90, cyan: 23, gray: 242 },
    delBg: 224,
    addBg: 194,
  },
  colorblind: {
    background: "#1e1e1e",
    // Failure orange (vermillion's light form), success sky blue, warnings yellow.
    colours: { red: 208, green: 75, yellow: 227, blue: 117, magenta: 182, cyan: 153, gray: 246 },
    delBg: 94,
    addBg: 24,
  },
};

/** The RGB of a 256-colour index of 16 or more (xterm's palette). */
export function rgbOf(index: number): [number, number, number] {
  if (index >= 232) {
    const v = 8 + 10 * (index - 232);
    return [v, v, v];
  }
  const steps = [0, 95, 135, 175, 215, 255];
  const i = index - 16;
  return [steps[Math.floor(i / 36)], steps[Math.floor(i / 6) % 6], steps[i % 6]];
}

function hexRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** WCAG 2 relative luminance. */
function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG 2 contrast ratio of a 256-colour index against a `#rrggbb` background. */
export function contrast(index: number, background: string): number {
  const a = luminance(rgbOf(index));
  const b = luminance(hexRgb(background));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}
