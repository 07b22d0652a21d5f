import { browser } from "wxt/browser";
import { PAGE_PORT } from "../../../lib/messages";
import { portSender } from "../../../lib/relay/port-sender";
import { startRelay } from "../../../lib/relay/relay";

// The wallet's relay (entrypoints/relay.content.ts), as it is.
startRelay(
  window,
  portSender(
    () => browser.runtime.connect({ name: PAGE_PORT }),
    () => browser.runtime?.id !== undefined,
  ),
);
