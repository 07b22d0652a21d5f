import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "wxt";
import { CHROMIUM_MANIFEST_KEY, GECKO_ID } from "./lib/proxy/extension-ids";

// Firefox 140 is the first release that knows `data_collection_permissions`;
// it also covers MAIN-world content scripts (128) and storage.session (115).
const FIREFOX_MIN_VERSION = "140.0";

export default defineConfig({
  modules: ["@wxt-dev/module-react", "@wxt-dev/i18n/module"],
  manifestVersion: 3,
  vite: () => ({
    plugins: [tailwindcss()],
  }),
  manifest: ({ browser }) => ({
    // The browser shows the name, description and toolbar title in its own language:
    // messages from locales/<lang>.yml, which @wxt-dev/i18n writes to _locales/.
    name: "__MSG_app_name__",
    default_locale: "en",
    description: "__MSG_app_description__",
    permissions: [
      "storage",
      "alarms",
      "tabs",
      "scripting",
      // Desktop MCP hosts: the link to stipendex-proxy's native host.
      "nativeMessaging",
      // Paywalled pages: noticing a top-level 402 (webRequest), loading it once with the payment.
      "webRequest",
      "declarativeNetRequestWithHostAccess",
    ],
    host_permissions: ["http://*/*", "https://*/*"],
    // A page's fetch reads a price or a receipt in these headers: a server that allows the page's
    // origin but exposes none of them (CORS's default) would leave its price unreadable.
    declarative_net_request: {
      rule_resources: [
        { id: "expose_payment_headers", enabled: true, path: "rules/expose-payment-headers.json" },
      ],
    },
    action: { default_title: "__MSG_app_name__" },
    ...(browser === "firefox"
      ? {
          browser_specific_settings: {
            gecko: {
              id: GECKO_ID,
              strict_min_version: FIREFOX_MIN_VERSION,
              data_collection_permissions: { required: ["none"] },
            },
            // Not offered on Firefox for Android: it has no `windows` API, and the confirmation
            // window and the background's wiring need one.
          },
        }
      : // A fixed id for unpacked builds, which the desktop proxy's host manifest names.
        { key: CHROMIUM_MANIFEST_KEY }),
  }),
  zip: {
    artifactTemplate: "{{name}}-{{version}}-{{browser}}-{{manifestVersion}}.zip",
    sourcesTemplate: "{{name}}-{{version}}-sources.zip",
  },
});
