import { createMcpHook } from "@/lib/hook/mcp-hook";
import { MCP_HOOK_EVENT } from "@/lib/hook/mcp-loader";

/** Run in a page's world by the background when the page's hook asks for it (stipendex_loadMcp). */
export default defineUnlistedScript({
  // A named IIFE would declare a global in the page.
  globalName: false,
  main() {
    window.dispatchEvent(new CustomEvent(MCP_HOOK_EVENT, { detail: createMcpHook() }));
  },
});
