// `ui` in config.json (R-UI-30): the UI's theme (`dark`, today's colours; `light`, for light
// backgrounds; `colorblind`, blue/orange instead of red/green) and the composer's vim mode.
import * as z from "zod/mini";

export const THEME_NAMES = ["dark", "light", "colorblind"] as const;
export type ThemeName = (typeof THEME_NAMES)[number];

export const uiSettings = () =>
  z.optional(
    z.strictObject({
      theme: z.optional(z.enum(THEME_NAMES)),
      vim: z.optional(z.boolean()),
    }),
  );
