// zod/mini leaves its messages to the caller: English ones are set here, once, by the modules that
// parse (config layers, tool arguments), so a bad value reads as it did with zod's chained API
// ("Invalid input: expected string, received number"). zod/mini instead of that API because only
// what the schemas use is bundled: the full API cost every start ~20 ms and ~5 MB.
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

config(en());
