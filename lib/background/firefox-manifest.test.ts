import { describe, expect, it } from "vitest";
import { builtManifest } from "@/tests/unit-support/manifest";

describe("the Firefox manifest", () => {
  // Firefox for Android has no `windows` API (MDN browser-compat-data): the background's
  // windows.onRemoved wiring and every confirmation window need it.
  it("does not offer the wallet to Firefox for Android", async () => {
    const manifest = await builtManifest("firefox");
    expect(manifest?.browser_specific_settings?.gecko?.strict_min_version).toBe("140.0");
    expect(manifest?.browser_specific_settings).not.toHaveProperty("gecko_android");
  });
});
