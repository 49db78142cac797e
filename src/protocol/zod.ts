// The project's one entry to zod: zod/mini, which bundles to a seventh of classic zod and so starts
// faster, with the English error messages classic zod installed by itself. Import it as a namespace,
// `import * as z from "../protocol/zod.js"`; `import { z }` would bundle all of zod and its locales.
import { config } from "zod/mini";
// The English locale alone: `zod/locales` would also reach the other locales.
import en from "zod/v4/locales/en.js";

config(en());

export * from "zod/mini";
