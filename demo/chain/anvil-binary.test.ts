import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { anvilBinaryPath } from "./anvil-binary";

describe("anvilBinaryPath", () => {
  it("finds the anvil executable of @foundry-rs/anvil's platform package", () => {
    const path = anvilBinaryPath();
    expect(path).toMatch(/@foundry-rs[\\/]anvil-[a-z0-9]+-[a-z0-9]+[\\/]bin[\\/]anvil(\.exe)?$/);
    const pkg = createRequire(import.meta.url)("@foundry-rs/anvil/package.json") as {
      version: string;
    };
    expect(execFileSync(path, ["--version"], { encoding: "utf8" })).toContain(
      `anvil Version: ${pkg.version}`,
    );
  });
});
