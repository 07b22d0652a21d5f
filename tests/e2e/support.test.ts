import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { builtExtension, MissingBuildError } from "./support/builds";
import { extensionPageUrl, NoWalletError } from "./support/extension-url";
import { startServer, type TestServer } from "./support/server";
import { parseCsv } from "./support/ui-csv";
import { WaitTimeoutError, waitUntil, within } from "./support/wait";
import { setUpOrClose, withOriginBudget } from "./support/wallet-setup";

// The e2e helpers, checked without a browser so a broken helper fails here first.
describe("e2e support: test server", () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({
      "/custom": (_req, res) => {
        res.writeHead(200);
        res.end("custom route");
      },
    });
  });
  after(() => server.close());

  it("listens on 127.0.0.1 and serves fixtures with their content type", async () => {
    assert.match(server.origin, /^http:\/\/127\.0\.0\.1:\d+$/);
    const page = await fetch(server.url("/foundation.html"));
    assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
    assert.match(await page.text(), /^<!doctype html>\s*<html lang="en">\s*<head>\s*<script>/);
    const script = await fetch(server.url("/checks.js"));
    assert.equal(script.headers.get("content-type"), "text/javascript; charset=utf-8");
  });

  it("answers 404 for unknown paths and refuses paths outside the fixtures", async () => {
    const missing = await fetch(server.url("/nope.html"));
    assert.equal(missing.status, 404);
    assert.equal(await missing.text(), "No such test resource: /nope.html");
    const traversal = await fetch(server.url("/..%2Fsupport%2Fserver.ts"));
    assert.equal(traversal.status, 404);
  });

  it("serves custom routes and the fixed /api/hello response", async () => {
    assert.equal(await (await fetch(server.url("/custom"))).text(), "custom route");
    const hello = await new Promise<{ status?: number; message?: string; date?: string }>(
      (resolve) =>
        request(server.url("/api/hello"), (res) => {
          res.resume();
          resolve({ status: res.statusCode, message: res.statusMessage, date: res.headers.date });
        }).end(),
    );
    assert.deepEqual(hello, { status: 201, message: "Made Here", date: undefined });
  });

  it("echoes a POST body", async () => {
    const echo = await fetch(server.url("/api/echo"), { method: "POST", body: "abc" });
    assert.deepEqual(await echo.json(), {
      method: "POST",
      contentType: "text/plain;charset=UTF-8",
      custom: null,
      body: "abc",
    });
  });

  it("holds the stream after its first chunk until the reader acknowledges it", async () => {
    const response = await fetch(server.url("/api/stream?id=s1"));
    const reader = response.body?.getReader();
    assert.ok(reader);
    const decoder = new TextDecoder();
    const first = await reader.read();
    assert.equal(decoder.decode(first.value), "first\n");
    assert.equal((await fetch(server.url("/api/stream-ack?id=s1"))).status, 204);
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += decoder.decode(chunk.value);
    }
    assert.equal(rest, "middle\nlast:acked\n");
    assert.equal((await fetch(server.url("/api/stream-ack?id=unknown"))).status, 404);
  });

  it("gives a port that refuses connections, and drops /api/reset connections", async () => {
    const port = await (await fetch(server.url("/api/closed-port"))).text();
    await assert.rejects(fetch(`http://127.0.0.1:${port}/`), TypeError);
    await assert.rejects(fetch(server.url("/api/reset")), TypeError);
  });

  it("closes even while a stream waits for its acknowledgement", async () => {
    const other = await startServer();
    const response = await fetch(other.url("/api/stream?id=pending"));
    const reader = response.body?.getReader();
    await reader?.read();
    const started = Date.now();
    await other.close();
    assert.ok(Date.now() - started < 1_000, "close() returned promptly");
  });
});

describe("e2e support: small helpers", () => {
  it("builds extension page URLs and refuses when there is no wallet", () => {
    assert.equal(
      extensionPageUrl("chrome-extension://abc/", "/popup.html"),
      "chrome-extension://abc/popup.html",
    );
    assert.equal(
      extensionPageUrl("moz-extension://u-u-i-d/", "confirm.html?id=1"),
      "moz-extension://u-u-i-d/confirm.html?id=1",
    );
    assert.throws(() => extensionPageUrl(undefined, "popup.html"), NoWalletError);
  });

  it("finds a built extension or names the command that builds it", () => {
    try {
      assert.match(builtExtension("chrome-mv3"), /\/\.output\/chrome-mv3$/);
    } catch (error) {
      assert.ok(error instanceof MissingBuildError);
      assert.match(error.message, /Run `npx wxt build`/);
    }
    const missing = new MissingBuildError(
      "/x/.output/firefox-mv3",
      "npx wxt build -b firefox --mv3",
    );
    assert.equal(missing.code, "missing-build");
    assert.match(missing.message, /\/x\/\.output\/firefox-mv3\/manifest\.json does not exist/);
  });

  it("waits until a condition holds, or times out naming what it waited for", async () => {
    let ticks = 0;
    await waitUntil(() => ++ticks >= 3, "three ticks", 1_000, 1);
    assert.equal(ticks, 3);
    await assert.rejects(
      waitUntil(() => false, "never", 30, 5),
      (error: unknown) => {
        assert.ok(error instanceof WaitTimeoutError);
        assert.equal(error.message, "Gave up after 30 ms waiting for never");
        return true;
      },
    );
  });

  it("gives a step's result in time, or fails naming the step that hung", async () => {
    assert.equal(await within(Promise.resolve(7), "seven", 1_000), 7);
    await assert.rejects(within(new Promise(() => {}), "a hung step", 30), {
      name: "WaitTimeoutError",
      message: "Gave up after 30 ms waiting for a hung step",
    });
  });
});

describe("e2e support: CSV and wallet setup helpers", () => {
  it("parses RFC 4180 CSV with quoted cells, doubled quotes and CRLF", () => {
    assert.deepEqual(parseCsv('a,b\r\n"x, y","say ""hi"""\r\n1,\n'), [
      { a: "x, y", b: 'say "hi"' },
      { a: "1", b: "" },
    ]);
  });

  it("gives an origin a daily test-USD budget without touching the rest of the policy", () => {
    const policy = {
      globalCaps: { USD: { day: "5000000" } },
      origins: { "https://other.example": {} as never },
      receivers: { allow: [], deny: [] },
      networks: [],
      assets: [],
      trustedRegistries: [],
    };
    const updated = withOriginBudget(policy, "http://127.0.0.1:1", {
      amount: "900",
      autoApproveUpTo: "300",
    });
    assert.deepEqual(updated.origins["http://127.0.0.1:1"], {
      currency: "test USD",
      amount: "900",
      period: "day",
      autoApproveUpTo: "300",
      perCallMax: "900",
    });
    assert.ok(updated.origins["https://other.example"]);
    assert.equal(policy.origins["http://127.0.0.1:1" as never], undefined);
  });

  it("closes the browser when a setup step fails, and passes the failure on", async () => {
    let closed = false;
    const failure = new Error("setup failed");
    await assert.rejects(
      setUpOrClose(
        {
          close: async () => {
            closed = true;
          },
        },
        async () => {
          throw failure;
        },
      ),
      failure,
    );
    assert.equal(closed, true);
    assert.equal(await setUpOrClose({ close: async () => undefined }, async () => 7), 7);
  });
});
