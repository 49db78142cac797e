// Plain value lists shared by the flag table and the config schema (kept free of zod, so that
// `--help` does not load it).
export const thinkingLevels = ["off", "low", "medium", "high"] as const;
export type ThinkingLevel = (typeof thinkingLevels)[number];

/** auto: workspace-write where Landlock works, otherwise off (and the UI says "unsandboxed"). */
export const sandboxModes = ["auto", "off", "read-only", "workspace-write"] as const;
export type SandboxMode = (typeof sandboxModes)[number];

/** The wire formats spoken to a model endpoint: chat completions, the Responses API, Anthropic Messages. */
export const apiModes = ["chat", "responses", "anthropic"] as const;
export type ApiMode = (typeof apiModes)[number];
