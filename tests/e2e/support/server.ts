import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
const FIXTURE_NAME = /^\/([a-z0-9-]+\.(?:html|js))$/;
const CONTENT_TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
};
/** How long the stream endpoint waits for the page's acknowledgement before giving up. */
const ACK_TIMEOUT_MS = 5_000;

export type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export interface TestServer {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  url(path: string): string;
  close(): Promise<void>;
}

/**
 * A tiny HTTP server on 127.0.0.1 (a random port) for the end-to-end tests:
 * serves tests/e2e/fixtures/*.{html,js} and the `/api/*` endpoints the fetch
 * checks use. Later issues add endpoints through `routes` (path → handler).
 */
export async function startServer(routes: Record<string, Handler> = {}): Promise<TestServer> {
  const closedPort = await findClosedPort();
  const acks = new Map<string, () => void>();
  const timers = new Set<NodeJS.Timeout>();
  const delay = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const builtIn: Record<string, Handler> = {
    "/api/hello": (_req, res) => {
      res.writeHead(201, "Made Here", {
        "content-type": "text/plain; charset=utf-8",
        "cache-control": "no-store",
        "x-test": "one",
        "x-multi": ["a", "b"],
      });
      res.end("hello, wörld");
    },
    "/api/echo": async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          method: req.method,
          contentType: req.headers["content-type"] ?? null,
          custom: req.headers["x-custom"] ?? null,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    },
    // Sends "first", then holds the rest until the page acknowledges it
    // (/api/stream-ack), so the page provably read chunk 1 before the last was sent.
    "/api/stream": async (_req, res, url) => {
      const id = url.searchParams.get("id") ?? "";
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      res.write("first\n");
      const acked = await Promise.race([
        new Promise<boolean>((resolve) => acks.set(id, () => resolve(true))),
        delay(ACK_TIMEOUT_MS).then(() => false),
      ]);
      acks.delete(id);
      res.write("middle\n");
      await delay(150);
      res.end(acked ? "last:acked\n" : "last:no-ack\n");
    },
    "/api/stream-ack": (_req, res, url) => {
      const ack = acks.get(url.searchParams.get("id") ?? "");
      ack?.();
      res.writeHead(ack ? 204 : 404);
      res.end();
    },
    "/api/slow": async (_req, res) => {
      await delay(3_000);
      if (!res.destroyed) res.end("too late");
    },
    "/api/closed-port": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(String(closedPort));
    },
    "/api/reset": (req) => {
      req.socket.destroy();
    },
  };

  const server = createServer(async (req, res) => {
    // Deterministic headers: the tests compare responses seen with and without the wallet.
    res.sendDate = false;
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const handler = routes[url.pathname] ?? builtIn[url.pathname];
    try {
      if (handler) return await handler(req, res, url);
      const fixture = FIXTURE_NAME.exec(url.pathname)?.[1];
      if (fixture) {
        const body = await readFile(`${FIXTURES}${fixture}`).catch(() => undefined);
        if (body) {
          const ext = fixture.slice(fixture.lastIndexOf(".") + 1);
          res.writeHead(200, { "content-type": CONTENT_TYPES[ext] ?? "application/octet-stream" });
          return void res.end(body);
        }
      }
      res.writeHead(404, { "content-type": "text/plain" });
      res.end(`No such test resource: ${url.pathname}`);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path) => new URL(path, origin).href,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const ack of acks.values()) ack();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port that was free a moment ago and has nothing listening now: fetches to it are refused. */
async function findClosedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
