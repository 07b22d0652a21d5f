import { createBridge } from "@/lib/hook/bridge";
import { installFetchHook } from "@/lib/hook/fetch";
import { mcpLoader } from "@/lib/hook/mcp-loader";
import { hookInstalled, installProvider } from "@/lib/hook/provider";
import { createWalletLink } from "@/lib/hook/wallet-link";
import { installXhrHook } from "@/lib/hook/xhr";

export default defineContentScript({
  matches: ["http://*/*", "https://*/*"],
  world: "MAIN",
  runAt: "document_start",
  allFrames: true,
  // A named IIFE would declare a global in the page (and break a page's own `let hook`).
  globalName: false,
  main() {
    if (hookInstalled(window)) return;
    const { request, notify } = createBridge(window);
    const wallet = createWalletLink(request, notify);
    const mcp = mcpLoader(window, () =>
      request({ method: "stipendex_loadMcp", params: undefined }),
    );
    installXhrHook(window, installFetchHook(window, wallet, mcp));
    installProvider(window, request, wallet);
  },
});
