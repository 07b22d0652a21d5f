// Types for the helper module @foundry-rs/anvil ships (plain JS with JSDoc); only what we use.
declare module "@foundry-rs/anvil/const.mjs" {
  export type Tool = "forge" | "cast" | "anvil" | "chisel";
  export function PLATFORM_SPECIFIC_PACKAGE_NAME(tool: Tool): string | undefined;
  export function BINARY_NAME(tool: Tool): string;
}
