import type { WireResponse } from "@/lib/messages";
import { startRelay } from "@/lib/relay/relay";

export default defineContentScript({
  matches: ["http://*/*", "https://*/*"],
  runAt: "document_start",
  allFrames: true,
  main() {
    startRelay(window, (message) => browser.runtime.sendMessage(message) as Promise<WireResponse>);
  },
});
