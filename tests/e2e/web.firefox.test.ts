import { firefoxTab } from "./support/tabs";
import { openFirefoxAgent } from "./support/wallet-firefox";
import { describeWeb } from "./support/web";

describeWeb("Firefox", "firefox-mv3", 180_000, (demo, payerKey) =>
  openFirefoxAgent(demo.urls.agent, payerKey, firefoxTab),
);
