import { describeActivation } from "./support/activation";
import { firefoxInputTab } from "./support/tabs";
import { openFirefoxAgent } from "./support/wallet-firefox";

describeActivation("Firefox", 90_000, { realWindowFocus: true }, (demo, payerKey) =>
  openFirefoxAgent(demo.urls.agent, payerKey, firefoxInputTab),
);
