import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { type Demo, startDemo } from "../../demo/server";
import type { SpendSummary } from "../../lib/messages";
import { testCurrency } from "../../lib/wallet/test-money";
import { assertSettled, demoRig, snapshot } from "./support/payments";
import {
  connectDesktopHost,
  type DesktopHost,
  openProxyWallet,
  type ProxyPlaces,
  proxyPlaces,
  runProxyCommand,
} from "./support/proxy";
import { grantOriginBudget } from "./support/wallet-setup";

/** How soon the proxy must answer when the wallet cannot pay: seconds, never a hang. */
const ANSWER_WITHIN_MS = 10_000;

type CallResult = { isError?: boolean; content?: { type: string; text?: string }[] };

function assertPaidResult(result: unknown, what: string): void {
  const { isError, content } = result as CallResult;
  assert.notEqual(isError, true, `${what}: ${JSON.stringify(result)}`);
  assert.ok(
    content?.some((c) => c.type === "text" && c.text),
    `${what}: ${JSON.stringify(result)}`,
  );
}

/** A paid call the wallet cannot pay: an MCP error -32402 whose message says what to do, within seconds. */
async function assertRefusedSaying(host: DesktopHost, pattern: RegExp): Promise<void> {
  const started = Date.now();
  await assert.rejects(
    host.client.callTool({ name: "web_search", arguments: { query: "desktop" } }),
    (error: unknown) => {
      assert.ok(error instanceof McpError, String(error));
      assert.equal(error.code, -32402, error.message);
      assert.match(error.message, pattern, host.stderr());
      return true;
    },
  );
  assert.ok(Date.now() - started < ANSWER_WITHIN_MS, `answered in ${Date.now() - started} ms`);
}

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

describe("stipendex-proxy through the wallet in Chromium", { timeout: 240_000 }, () => {
  const places = proxyPlaces();
  const get = demoRig("Chromium", 240_000, async (_demo, payerKey) => {
    await runProxyCommand(places, ["install", "--browser-dir", places.profile]);
    return openProxyWallet(places, payerKey);
  });
  const hosts: DesktopHost[] = [];
  const connect = async (upstream: string, capabilities = {}) => {
    const host = await connectDesktopHost(places, upstream, capabilities);
    hosts.push(host);
    return host;
  };
  after(async () => {
    await Promise.allSettled(hosts.map((host) => host.close()));
    places.remove();
  });

  it("pays a tool approved in the window, shown as the desktop app via proxy, receipt in history", async () => {
    const { rig, browser } = get();
    const server = rig.demo.urls.mcpSse;
    const caller = `proxy:${new URL(server).origin}`;
    const host = await connect(server);
    // tools/list: the wallet learns the announced price, and shows it beside the Quote.
    await host.client.listTools();
    const before = await snapshot(rig, caller);
    const [result] = await Promise.all([
      host.client.callTool({ name: "web_search", arguments: { query: "desktop" } }),
      rig.nextConfirmWindow().then(async (window) => {
        assert.equal(
          await window.text("origin"),
          `desktop app via proxy (${new URL(server).origin})`,
        );
        assert.match((await window.text("price-hint")) ?? "", /announced 0\.005 USD/);
        await window.click("Approve");
      }),
    ]);
    assertPaidResult(result, "web_search");
    await assertSettled(rig, caller, before, [5_000n]);
    const lines = await browser.historyLines("desktop app via proxy");
    assert.ok(
      lines.some((line) => line.includes(`desktop app via proxy (${new URL(server).origin})`)),
      lines.join("\n"),
    );
  });

  it("answers a payment elicitation from the window when the host cannot", async () => {
    const { rig } = get();
    const server = rig.demo.urls.mcpSse;
    const caller = `proxy:${new URL(server).origin}`;
    const host = await connect(server);
    const before = await snapshot(rig, caller);
    const opened = rig.confirmWindowsOpened();
    const [result] = await Promise.all([
      host.client.callTool({ name: "confirmed_search", arguments: { query: "elicited" } }),
      rig.nextConfirmWindow().then((window) => window.click("Approve")),
    ]);
    assertPaidResult(result, "confirmed_search");
    await assertSettled(rig, caller, before, [10_000n]);
    assert.equal(rig.confirmWindowsOpened() - opened, 1, "one window for the elicitation");
  });

  it("pays under the proxy's own budget without a window; a web origin's budget is not its", async () => {
    const { rig } = get();
    const server = rig.demo.urls.mcpJson;
    const caller = `proxy:${new URL(server).origin}`;
    // The upstream's own origin, as a web page, has a budget: the proxy is still asked.
    await grantOriginBudget(rig.wallet, new URL(server).origin, {
      amount: "1000000",
      autoApproveUpTo: "1000000",
    });
    const host = await connect(server);
    const asked = await snapshot(rig, caller);
    const opened = rig.confirmWindowsOpened();
    await Promise.all([
      host.client.callTool({ name: "web_search", arguments: { query: "asked" } }),
      rig.nextConfirmWindow().then((window) => window.click("Approve")),
    ]);
    assert.equal(
      rig.confirmWindowsOpened() - opened,
      1,
      "a web origin's budget is not the proxy's",
    );
    await assertSettled(rig, caller, asked, [5_000n]);

    // Up to 0.01 test USD a call without asking: the surge-priced tool (0.02) is still asked.
    await grantOriginBudget(rig.wallet, caller, { amount: "100000", autoApproveUpTo: "10000" });
    const before = await snapshot(rig, caller);
    const stipendex = await host.client.callTool({
      name: "web_search",
      arguments: { query: "budget" },
    });
    assertPaidResult(stipendex, "web_search");
    const x402 = await host.client.callTool({
      name: "x402_search",
      arguments: { query: "budget" },
    });
    assertPaidResult(x402, "x402_search");
    await assertSettled(rig, caller, before, [5_000n, 3_000n]);
    assert.equal(rig.confirmWindowsOpened() - opened, 1, "no window under the proxy's budget");
    const spent = (spend: SpendSummary[]) =>
      BigInt(spend.find((summary) => summary.currency === testCurrency("USD"))?.origin?.spent ?? 0);
    const after = await rig.wallet({ method: "ui_getSpend", params: { origin: caller } });
    assert.equal(spent(after) - spent(before.spend), 8_000n, "the proxy's own budget was charged");
  });

  it("says when the person declined, and when the wallet is locked", async () => {
    const { rig } = get();
    const host = await connect(rig.demo.urls.mcpJson);
    const [declined] = await Promise.allSettled([
      host.client.callTool({ name: "surge_search", arguments: { query: "declined" } }),
      rig.nextConfirmWindow().then((window) => window.click("Decline")),
    ]);
    assert.equal(declined.status, "rejected");
    const reason = declined.status === "rejected" ? declined.reason : undefined;
    assert.ok(reason instanceof McpError, String(reason));
    assert.equal(reason.code, -32402);
    assert.match(reason.message, /did not make it: You declined the payment/);

    await rig.wallet({ method: "ui_lock", params: undefined });
    await assertRefusedSaying(host, /locked: unlock it in the browser/);
  });
});
