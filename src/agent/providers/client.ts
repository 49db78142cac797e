// The clients the engine talks through: the main provider's (the factory's wire, with tool names
// and schemas fitted to the provider) and the fallbacks', built only when first needed.
import type { FallbackTarget, Settings } from "../../config/schema.js";
import { findProvider } from "../../config/providers.js";
import type { ModelClient } from "../model-client.js";
import type { FallbackRoute } from "../retry.js";
import { createModelClient } from "./factory.js";
import { withToolSchemas, type SchemaDialect } from "./tool-schemas.js";

function dialectOf(provider: string | undefined): SchemaDialect {
  return provider ? findProvider(provider)?.schemaDialect : undefined;
}

/** Contract: like createModelClient, never throws from `complete`. */
export function createProviderClient(settings: Settings): ModelClient {
  return withToolSchemas(createModelClient(settings), dialectOf(settings.provider));
}

/** A client made on its first request: a fallback's SDK is not loaded unless it is used. */
export function lazyClient(make: () => ModelClient): ModelClient {
  let client: ModelClient | null = null;
  return {
    complete(request, handlers) {
      client ??= make();
      return client.complete(request, handlers);
    },
  };
}

/** The settings a fallback's client is built from: the main ones with its endpoint, key and mode. */
export function fallbackSettings(settings: Settings, target: FallbackTarget): Settings {
  return {
    ...settings,
    provider: target.provider,
    model: target.model,
    baseUrl: target.baseUrl,
    api: target.api,
    apiKey: target.apiKey,
    apiKeyEnv: target.apiKeyEnv,
    azure: target.azure,
  };
}

/**
 * The fallback routes, in order. A target on the main endpoint uses the main client (`primary`,
 * which may be a test's); another provider gets its own client, made lazily by `make`.
 */
export function fallbackRoutes(
  settings: Settings,
  make: (settings: Settings) => ModelClient = createProviderClient,
): FallbackRoute[] {
  return (settings.fallback ?? []).map((target) =>
    target.sameEndpoint
      ? { model: target.model }
      : {
          model: target.model,
          ...(target.provider ? { provider: target.provider } : {}),
          client: lazyClient(() => make(fallbackSettings(settings, target))),
        },
  );
}
