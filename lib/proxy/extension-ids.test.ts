import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CHROMIUM_EXTENSION_ID, CHROMIUM_MANIFEST_KEY } from "./extension-ids";

describe("the pinned Chromium extension id", () => {
  it("is the one Chromium derives from the manifest key", () => {
    const digest = createHash("sha256")
      .update(Buffer.from(CHROMIUM_MANIFEST_KEY, "base64"))
      .digest("hex");
    const id = [...digest.slice(0, 32)]
      .map((hex) => String.fromCharCode(97 + Number.parseInt(hex, 16)))
      .join("");
    expect(id).toBe(CHROMIUM_EXTENSION_ID);
  });
});
