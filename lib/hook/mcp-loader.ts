import type { McpSource } from "./fetch";
import type { McpHook } from "./mcp-hook";

/** The event the MCP half announces itself with once the wallet has loaded it into the page. */
export const MCP_HOOK_EVENT = "stipendex:mcpHook";

/** Past this, a page's MCP requests go on unpaid rather than wait for a wallet that does not answer. */
const LOAD_TIMEOUT_MS = 5_000;

/**
 * Loads the hook's MCP half on first use: the page's own hook stays small,
 * and a page that never speaks MCP never carries it. `inject` asks the wallet
 * to run the MCP script in this frame's page world (see the background's
 * `stipendex_loadMcp`); the script answers with MCP_HOOK_EVENT. Listening
 * starts now, at document_start, with the window's own addEventListener.
 */
export function mcpLoader(win: Window, inject: () => Promise<unknown>): McpSource {
  let hook: McpHook | undefined;
  let announced: ((hook: McpHook) => void) | undefined;
  win.addEventListener(MCP_HOOK_EVENT, (event) => {
    const detail = (event as CustomEvent<McpHook | undefined>).detail;
    if (hook || typeof detail?.fetch !== "function") return;
    hook = detail;
    announced?.(detail);
  });
  let loading: Promise<McpHook> | undefined;
  const load = () =>
    new Promise<McpHook>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error("The MCP hook did not load")),
        LOAD_TIMEOUT_MS,
      );
      announced = (loaded) => {
        clearTimeout(timer);
        resolve(loaded);
      };
      inject().catch((error: unknown) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  return {
    loaded: () => hook,
    load: () => {
      if (hook) return Promise.resolve(hook);
      loading ??= load().catch((error: unknown) => {
        // The next MCP request tries again (the wallet may have been restarting).
        loading = undefined;
        throw error;
      });
      return loading;
    },
  };
}
