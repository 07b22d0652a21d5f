import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildFloorExtension } from "./floor-extension";
import { FLOOR_KINDS, isFloorKind } from "./floor-kinds";

describe("the floor extension", () => {
  it("builds a loadable MV3 extension: its manifest names the three scripts it wrote", async () => {
    const dir = await buildFloorExtension();
    try {
      const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8"));
      expect(manifest.manifest_version).toBe(3);
      const scripts = [
        manifest.background.service_worker,
        ...manifest.content_scripts.flatMap((script: { js: string[] }) => script.js),
      ];
      expect(scripts).toEqual(["worker.js", "hook.js", "relay.js"]);
      for (const script of scripts) {
        const code = await readFile(join(dir, script), "utf8");
        // Bundled whole for the browser: nothing left for Node to resolve.
        expect(code).not.toMatch(/\brequire\(|from\s*["']node:/);
      }
      expect(manifest.content_scripts[0].world).toBe("MAIN");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("knows its kinds by name, and nothing else", () => {
    for (const kind of Object.keys(FLOOR_KINDS)) expect(isFloorKind(kind)).toBe(true);
    expect(isFloorKind("stipendex_pay")).toBe(false);
    expect(isFloorKind("toString")).toBe(false);
    expect(isFloorKind(undefined)).toBe(false);
  });
});
