import { describePayments } from "./support/payments";
import { firefoxTab } from "./support/tabs";
import { openFirefoxAgent } from "./support/wallet-firefox";

describePayments("Firefox", 240_000, (demo, payerKey) =>
  openFirefoxAgent(demo.urls.agent, payerKey, firefoxTab),
);
