// Slash commands that change only how the interactive UI looks and reads keys (R-UI-30): `/vim`
// (the composer's vim keys on or off) and `/theme` (dark, light, colourblind; a picker with a
// preview when none is named). A front end without them says so in one line.
import type { SlashCommand } from "./host.js";

const THEMES = ["dark", "light", "colorblind"];

export const uiCommands = {
  vim: {
    name: "/vim",
    description: "vim keys in the composer (normal and insert modes); again to turn them off",
    timing: "now",
    run: (host) => {
      if (!host.toggleVim) return host.print("/vim works in the interactive UI");
      host.print(host.toggleVim() ? "vim keys on: Esc for normal mode, i to insert" : "vim keys off");
    },
  },
  theme: {
    name: "/theme",
    args: "[dark|light|colorblind]",
    description: "the UI's colours: pick with a preview, or name one",
    timing: "now",
    run: (host, args) => {
      if (!host.setTheme) return host.print("/theme works in the interactive UI");
      const name = args[0];
      if (name !== undefined && !THEMES.includes(name))
        return host.error(`/theme: unknown theme ${name}; choose dark, light or colorblind`);
      host.setTheme(name);
    },
  },
} satisfies Record<string, SlashCommand>;
