import { createBridge } from "@/lib/hook/bridge";
import { installFetchHook } from "@/lib/hook/fetch";
import { installProvider } from "@/lib/hook/provider";
import { createWalletLink } from "@/lib/hook/wallet-link";

export default defineContentScript({
  matches: ["http://*/*", "https://*/*"],
  world: "MAIN",
  runAt: "document_start",
  allFrames: true,
  main() {
    const request = createBridge(window);
    const wallet = createWalletLink(request);
    installFetchHook(window, wallet);
    installProvider(window, request, wallet);
  },
});
