import { installFetchHook } from "@/lib/hook/fetch";
import { installProvider } from "@/lib/hook/provider";

export default defineContentScript({
  matches: ["http://*/*", "https://*/*"],
  world: "MAIN",
  runAt: "document_start",
  allFrames: true,
  main() {
    installProvider(window);
    installFetchHook(window);
  },
});
