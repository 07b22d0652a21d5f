import config from "@/wxt.config";

/** The manifest wxt.config.ts gives a production build for `browser`. */
export async function builtManifest(browser: "chrome" | "firefox") {
  return typeof config.manifest === "function"
    ? await config.manifest({ browser, manifestVersion: 3, mode: "production", command: "build" })
    : await config.manifest;
}
