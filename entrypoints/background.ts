import { createPageHandlers, createUiHandlers } from "@/lib/background/handlers";
import { createRouter } from "@/lib/background/router";

export default defineBackground(() => {
  const extensionBaseUrl = browser.runtime.getURL("/");
  const route = createRouter({
    extensionId: browser.runtime.id,
    extensionBaseUrl,
    page: createPageHandlers(),
    ui: createUiHandlers(extensionBaseUrl),
  });
  browser.runtime.onMessage.addListener((message, sender) => route(message, sender));
});
