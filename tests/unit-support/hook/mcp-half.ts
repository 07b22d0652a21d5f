import type { McpSource } from "../../../lib/hook/fetch";
import { createMcpHook } from "../../../lib/hook/mcp-hook";

/**
 * The hook's second half loaded on first use, as in a page; `loads` counts the
 * loads, and with `fail` every load fails (the wallet did not load it).
 */
export function mcpAtHand(fail = false): McpSource & { loads: number } {
  const hook = createMcpHook();
  let loaded = false;
  const source: McpSource & { loads: number } = {
    loads: 0,
    loaded: () => (loaded ? hook : undefined),
    load: async () => {
      source.loads++;
      if (fail) throw new Error("The wallet did not load its MCP hook");
      loaded = true;
      return hook;
    },
  };
  return source;
}
