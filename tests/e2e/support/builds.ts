import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { StipendexError } from "../../../lib/errors";

const OUTPUT = fileURLToPath(new URL("../../../.output/", import.meta.url));

const BUILD_COMMANDS = {
  "chrome-mv3": "npx wxt build",
  "firefox-mv3": "npx wxt build -b firefox --mv3",
} as const;

export type BuildTarget = keyof typeof BUILD_COMMANDS;

export class MissingBuildError extends StipendexError {
  override name = "MissingBuildError";

  constructor(dir: string, command: string) {
    super(
      "missing-build",
      `The built extension is missing: ${dir}/manifest.json does not exist. Run \`${command}\` (or \`npm test\`, which builds first).`,
    );
  }
}

/** Absolute path of a built extension directory; throws if it was not built. */
export function builtExtension(target: BuildTarget): string {
  const dir = `${OUTPUT}${target}`;
  if (!existsSync(`${dir}/manifest.json`)) throw new MissingBuildError(dir, BUILD_COMMANDS[target]);
  return dir;
}
