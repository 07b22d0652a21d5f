import { PROVIDER_VERSION } from "../messages";
import type { PageHandlers, UiHandlers } from "./router";

export function createPageHandlers(): PageHandlers {
  return {
    stipendex_status: async (_params, context) => ({
      version: PROVIDER_VERSION,
      origin: context.origin,
    }),
  };
}

export function createUiHandlers(extensionBaseUrl: string): UiHandlers {
  return {
    ui_status: async () => ({ version: PROVIDER_VERSION, origin: extensionBaseUrl }),
  };
}
