import { PAGE_PORT } from "@/lib/messages";
import { portSender } from "@/lib/relay/port-sender";
import { startRelay } from "@/lib/relay/relay";

export default defineContentScript({
  matches: ["http://*/*", "https://*/*"],
  runAt: "document_start",
  allFrames: true,
  main() {
    startRelay(
      window,
      portSender(
        () => browser.runtime.connect({ name: PAGE_PORT }),
        // Undefined once the extension that injected this script is reloaded or removed.
        () => browser.runtime?.id !== undefined,
      ),
    );
  },
});
