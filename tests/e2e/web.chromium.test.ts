import { chromiumTab } from "./support/tabs";
import { openChromiumAgent } from "./support/wallet-chromium";
import { describeWeb } from "./support/web";

describeWeb("Chromium", "chrome-mv3", 180_000, (demo, payerKey) =>
  openChromiumAgent(demo.urls.agent, payerKey, chromiumTab),
);
