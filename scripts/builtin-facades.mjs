// Node's ESM import of a built-in builds a module facade that reads every export of it, getters
// included: `node:process` then makes the report module and the allowed-flags set, `node:crypto`
// loads Web Crypto. Both are imported before the first frame and before a one-shot turn's first
// request, and nothing here uses those getters. This plugin gives the bundle small modules that
// export the built-in's plain properties from the object `require` returns, reading no getter.
// tests/e2e/startup-modules.test.ts checks the built-ins a run loads.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The built-ins replaced, and from which importers (crypto: our own code, which uses named imports only). */
const REPLACED = {
  process: () => true,
  crypto: (importer) => /[/\\]src[/\\]/.test(importer) && !/[/\\]node_modules[/\\]/.test(importer),
};

/** Own properties that are plain values (no getter), valid as export names. */
function plainNames(object) {
  return Object.entries(Object.getOwnPropertyDescriptors(object))
    .filter(([name, d]) => !d.get && !d.set && /^[A-Za-z_$][\w$]*$/.test(name) && name !== "default")
    .map(([name]) => name);
}

export function builtinFacades() {
  return {
    name: "nanohermes-builtin-facades",
    setup(b) {
      b.onResolve({ filter: /^(node:)?(process|crypto)$/ }, (args) => {
        const name = args.path.replace(/^node:/, "");
        return REPLACED[name](args.importer) ? { path: name, namespace: "nh-builtin" } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: "nh-builtin" }, (args) => {
        // An import of a getter's name (crypto's webcrypto, process's stdout) fails the build here.
        const names = plainNames(require(`node:${args.path}`));
        const lines = [
          'import { createRequire } from "node:module";',
          `const m = createRequire(import.meta.url)("node:${args.path}");`,
          "export default m;",
          ...names.map((n) => `export const ${n} = m.${n};`),
        ];
        return { contents: `${lines.join("\n")}\n`, loader: "js" };
      });
    },
  };
}
