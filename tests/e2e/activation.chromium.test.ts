import { describeActivation } from "./support/activation";
import { chromiumInputTab } from "./support/tabs";
import { openChromiumAgent } from "./support/wallet-chromium";

describeActivation("Chromium", 90_000, { realWindowFocus: false }, (demo, payerKey) =>
  openChromiumAgent(demo.urls.agent, payerKey, chromiumInputTab),
);
