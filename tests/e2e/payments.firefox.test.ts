import { describePayments } from "./support/payments";
import { firefoxTab } from "./support/tabs";
import { openFirefoxAgent } from "./support/wallet-firefox";

describePayments("Firefox", 90_000, (demo, payerKey) =>
  openFirefoxAgent(demo.urls.agent, payerKey, firefoxTab),
);
