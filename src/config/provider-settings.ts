// Where model requests go: the provider preset, base URL, key variable, API mode and model, and the
// fallback list, from flags > environment > config > the preset > defaults.
// Rule: a provider named by --provider (or NANOHERMES_PROVIDER) replaces the endpoint keys of the
// config files (baseUrl, apiKeyEnv, api, model), which may belong to another provider; only flags
// beat it. A provider named in config is the base the same file's keys refine.
import { UsageError } from "./flags.js";
import type { ApiMode } from "./levels.js";
import {
  AZURE_DEFAULT_API_VERSION,
  azureBaseUrl,
  findProvider,
  providerNames,
  resolveApiMode,
  type ProviderPreset,
} from "./providers.js";
import type { ConfigFile, FallbackTarget } from "./schema.js";

/** A config problem (the same class load.ts reports). */
export type MakeConfigError = (message: string) => Error;

export interface EndpointInput {
  /** Flag values (undefined when not given). */
  flags: {
    provider?: string | undefined;
    model?: string | undefined;
    baseUrl?: string | undefined;
    api?: ApiMode | undefined;
  };
  env: NodeJS.ProcessEnv;
  file: ConfigFile;
  defaultModel: string;
  configError: MakeConfigError;
}

export interface Endpoint {
  provider: string | undefined;
  model: string;
  baseUrl: string | undefined;
  api: ApiMode;
  apiKeyEnv: string;
  apiKey: string | undefined;
  azure: { deployment: string; apiVersion: string } | undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== "" ? value : undefined;
}

/** The preset for `name`, or a usage error that lists the names. */
export function presetOrError(name: string, where: string, makeError: (message: string) => Error): ProviderPreset {
  const preset = findProvider(name);
  if (!preset) throw makeError(`${where}: unknown provider "${name}" (one of ${providerNames.join(", ")})`);
  return preset;
}

interface Layer {
  preset: ProviderPreset | undefined;
  model: string | undefined;
  baseUrl: string | undefined;
  api: ApiMode | undefined;
  apiKeyEnv: string | undefined;
}

/** Fills a layer from its preset; Azure's base URL is built from its endpoint variable and deployment. */
function finish(
  layer: Layer,
  env: NodeJS.ProcessEnv,
  file: ConfigFile,
  defaultModel: string,
  configError: MakeConfigError,
): Endpoint {
  const preset = layer.preset;
  const model = layer.model ?? preset?.model ?? defaultModel;
  let baseUrl = layer.baseUrl;
  let azure: Endpoint["azure"];
  if (preset?.name === "azure") {
    azure = {
      deployment: file.azure?.deployment ?? model,
      apiVersion: file.azure?.apiVersion ?? AZURE_DEFAULT_API_VERSION,
    };
    if (baseUrl === undefined) {
      const endpoint = nonEmpty(env[preset.baseUrlEnv ?? "AZURE_OPENAI_ENDPOINT"]);
      if (!endpoint)
        throw configError(
          `provider azure: set ${preset.baseUrlEnv} to your resource's endpoint (https://NAME.openai.azure.com)`,
        );
      baseUrl = azureBaseUrl(endpoint, azure.deployment);
    }
  } else if (baseUrl === undefined && preset) baseUrl = preset.baseUrl;
  const api = resolveApiMode(layer.api, preset, baseUrl);
  // Anthropic mode without a provider takes Anthropic's own key variable when it is set.
  const apiKeyEnv =
    layer.apiKeyEnv ??
    preset?.apiKeyEnv ??
    (api === "anthropic" && nonEmpty(env.ANTHROPIC_API_KEY) ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY");
  return {
    provider: preset?.name,
    model,
    baseUrl,
    api,
    apiKeyEnv,
    apiKey: nonEmpty(env[apiKeyEnv]),
    azure,
  };
}

export function resolveEndpoint({ flags, env, file, defaultModel, configError }: EndpointInput): Endpoint {
  const explicitName = flags.provider ?? nonEmpty(env.NANOHERMES_PROVIDER);
  const name = explicitName ?? file.provider;
  const preset =
    name === undefined
      ? undefined
      : presetOrError(
          name,
          explicitName !== undefined
            ? flags.provider !== undefined
              ? "--provider"
              : "NANOHERMES_PROVIDER"
            : '"provider"',
          explicitName !== undefined ? (m) => new UsageError(m) : configError,
        );
  // An explicitly named provider drops the config's endpoint keys (they may be another provider's).
  const fromFile = explicitName === undefined;
  return finish(
    {
      preset,
      model: flags.model ?? nonEmpty(env.NANOHERMES_MODEL) ?? (fromFile ? file.model : undefined),
      baseUrl: flags.baseUrl ?? (fromFile ? (nonEmpty(env.OPENAI_BASE_URL) ?? file.baseUrl) : undefined),
      api: flags.api ?? (fromFile ? file.api : undefined),
      apiKeyEnv: fromFile ? file.apiKeyEnv : undefined,
    },
    env,
    file,
    defaultModel,
    configError,
  );
}

/**
 * The fallback list: --fallback-model (or "fallbackModel") first, on the main endpoint, then each
 * "fallback" entry. An entry without a provider keeps the main endpoint; one with a provider gets
 * that preset's base URL, key variable, mode and (without "model") default model.
 */
export function resolveFallbacks(
  main: Endpoint,
  fallbackModel: string | undefined,
  file: ConfigFile,
  env: NodeJS.ProcessEnv,
  configError: MakeConfigError,
): FallbackTarget[] {
  const out: FallbackTarget[] = [];
  const same = (model: string): FallbackTarget => ({
    provider: main.provider,
    model,
    baseUrl: main.baseUrl,
    api: main.api,
    apiKey: main.apiKey,
    apiKeyEnv: main.apiKeyEnv,
    azure: main.azure,
    sameEndpoint: true,
  });
  if (fallbackModel) out.push(same(fallbackModel));
  (file.fallback ?? []).forEach((entry, i) => {
    if (
      entry.provider === undefined &&
      entry.baseUrl === undefined &&
      entry.apiKeyEnv === undefined &&
      entry.api === undefined
    ) {
      if (entry.model) out.push(same(entry.model));
      return;
    }
    const preset =
      entry.provider !== undefined
        ? presetOrError(entry.provider, `"fallback.${i}.provider"`, configError)
        : findProvider(main.provider ?? "");
    const resolved = finish(
      {
        preset,
        model: entry.model ?? (entry.provider === undefined ? main.model : undefined),
        baseUrl: entry.baseUrl ?? (entry.provider === undefined ? main.baseUrl : undefined),
        api: entry.api,
        apiKeyEnv: entry.apiKeyEnv ?? (entry.provider === undefined ? main.apiKeyEnv : undefined),
      },
      env,
      { ...file, azure: entry.provider === "azure" ? file.azure : undefined },
      main.model,
      configError,
    );
    out.push({ ...resolved, sameEndpoint: false });
  });
  return out;
}
