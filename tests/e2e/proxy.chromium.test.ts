import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Demo, startDemo } from "../../demo/server";
import {
  assertPaidResult,
  assertRefusedSaying,
  connectDesktopHost,
  describeProxyPayments,
  type ProxyPlaces,
  proxyPlaces,
  runProxyCommand,
} from "./support/proxy";
import { openChromiumProxyWallet } from "./support/proxy-chromium";

describe("stipendex-proxy without a browser", { timeout: 90_000 }, () => {
  let demo: Demo | undefined;
  let places: ProxyPlaces | undefined;
  before(async () => {
    demo = await startDemo();
    places = proxyPlaces();
  });
  after(async () => {
    await demo?.stop();
    places?.remove();
  });

  it("forwards the free part, and answers paid calls with what to do: install, then start the browser", async () => {
    assert.ok(demo && places);
    const host = await connectDesktopHost(places, demo.urls.mcpJson);
    try {
      // The upstream's capabilities, tools and price hints pass through.
      const declared = host.client.getServerCapabilities()?.experimental?.["stipendex/payments"];
      assert.ok(declared, JSON.stringify(host.client.getServerCapabilities()));
      const { tools } = await host.client.listTools();
      const search = tools.find((tool) => tool.name === "web_search");
      assert.deepEqual(search?._meta?.["stipendex/pricing"], {
        model: "per_call",
        estimate: "0.005 USD",
      });
      assertPaidResult(
        await host.client.callTool({ name: "server_time", arguments: {} }),
        "server_time",
      );

      await assertRefusedSaying(host, /npx stipendex-proxy install/);

      // A Chromium found in the home directory: install writes its manifest; uninstall removes it.
      mkdirSync(join(places.home, ".config", "chromium"), { recursive: true });
      const manifest = join(
        places.home,
        ".config",
        "chromium",
        "NativeMessagingHosts",
        "dev.stipendex.wallet.json",
      );
      assert.match(await runProxyCommand(places, ["install"]), new RegExp(manifest));
      await assertRefusedSaying(host, /start the browser that has the Stipendex Wallet/);
      assert.match(await runProxyCommand(places, ["uninstall"]), new RegExp(manifest));
      await assertRefusedSaying(host, /npx stipendex-proxy install/);
    } finally {
      await host.close();
    }
  });
});

describeProxyPayments("Chromium", openChromiumProxyWallet);
