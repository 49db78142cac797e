// The program version, injected by the bundler; "dev" when running from source (tests).
declare const __NANOHERMES_VERSION__: string | undefined;

export const VERSION: string = typeof __NANOHERMES_VERSION__ === "string" ? __NANOHERMES_VERSION__ : "0.0.0-dev";
