import { defineConfig } from "vitest/config";
import { WxtVitest } from "wxt/testing/vitest-plugin";

export default defineConfig({
  plugins: [WxtVitest()],
  test: {
    include: [
      "lib/**/*.test.ts",
      "components/**/*.test.tsx",
      "demo/**/*.test.ts",
      "tests/interop/**/*.test.ts",
      "tests/bench/**/*.test.ts",
      "tests/unit-support/**/*.test.ts",
    ],
    environment: "node",
    setupFiles: ["tests/setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
