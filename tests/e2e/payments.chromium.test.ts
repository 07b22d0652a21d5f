import { describePayments } from "./support/payments";
import { chromiumTab } from "./support/tabs";
import { openChromiumAgent } from "./support/wallet-chromium";

describePayments("Chromium", 240_000, (demo, payerKey) =>
  openChromiumAgent(demo.urls.agent, payerKey, chromiumTab),
);
