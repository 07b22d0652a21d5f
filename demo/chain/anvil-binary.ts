import { createRequire } from "node:module";
import { BINARY_NAME, PLATFORM_SPECIFIC_PACKAGE_NAME } from "@foundry-rs/anvil/const.mjs";
import { AnvilBinaryNotFoundError } from "./errors";

/**
 * Path of the anvil executable shipped in @foundry-rs/anvil's platform package, found the way the
 * package's own bin.mjs finds it: resolved from @foundry-rs/anvil, so hoisting does not matter.
 */
export function anvilBinaryPath(): string {
  const platformPackage = PLATFORM_SPECIFIC_PACKAGE_NAME("anvil");
  if (platformPackage === undefined)
    throw new AnvilBinaryNotFoundError("a @foundry-rs/anvil platform package");
  const wanted = `${platformPackage}/bin/${BINARY_NAME("anvil")}`;
  const fromAnvil = createRequire(
    createRequire(import.meta.url).resolve("@foundry-rs/anvil/package.json"),
  );
  try {
    return fromAnvil.resolve(wanted);
  } catch (cause) {
    throw new AnvilBinaryNotFoundError(wanted, cause);
  }
}
