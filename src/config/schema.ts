// The zod schema of config.json (user and workspace) and the resolved settings the engine uses.
import { z } from "zod";

export const thinkingLevels = ["off", "low", "medium", "high"] as const;
export type ThinkingLevel = (typeof thinkingLevels)[number];

/** `~/.nanohermes/config.json` and `<workspace>/.nanohermes/config.json`. Unknown keys are errors. */
export const ConfigFileSchema = z
  .object({
    model: z.string().min(1).optional().describe("Model name sent to the endpoint."),
    fallbackModel: z.string().min(1).optional().describe("Tried once after retries run out."),
    baseUrl: z.url().optional().describe("OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1."),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name")
      .optional()
      .describe("Name of the environment variable that holds the API key (default OPENAI_API_KEY)."),
    maxRetries: z.number().int().min(0).max(10).optional(),
    retryBaseMs: z.number().int().min(0).max(60_000).optional(),
    maxIterations: z.number().int().min(1).max(10_000).optional(),
    requestTimeoutMs: z.number().int().min(1_000).optional(),
    thinking: z.enum(thinkingLevels).optional(),
    stream: z.boolean().optional(),
    sessionDir: z.string().min(1).optional(),
  })
  .strict();

export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** Everything the engine needs, after defaults, files, environment and flags are merged. */
export interface Settings {
  workspace: string;
  home: string;
  model: string;
  fallbackModel: string | undefined;
  baseUrl: string | undefined;
  /** Never logged, saved or emitted. */
  apiKey: string | undefined;
  maxRetries: number;
  retryBaseMs: number;
  maxIterations: number;
  requestTimeoutMs: number;
  thinking: ThinkingLevel;
  stream: boolean;
  sessionDir: string;
}

export const defaults = {
  model: "gpt-5",
  maxRetries: 2,
  retryBaseMs: 500,
  maxIterations: 90,
  requestTimeoutMs: 600_000,
  thinking: "off" as ThinkingLevel,
  stream: true,
} as const;
