import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { devAccounts } from "../../demo/chain/dev-accounts";
import { buildDescriptor } from "../../demo/receiver/descriptor";
import { createReceiverIdentity } from "../../demo/receiver/identity";
import { QuoteBook } from "../../demo/receiver/quote-book";
import type { RailTemplate } from "../../demo/receiver/rail";
import { toJsonForm } from "../../lib/protocol/envelope/json-form";

export const PAYMENT_HEADER = "stipendex-payment";
/** Atomic units of 6-decimal USDC: 0.001 USD a call. */
export const BENCH_PRICE = 1_000n;

/** Base Sepolia USDC as the wallet's registry knows it; signing needs no chain. */
const RAIL: RailTemplate = {
  network: "eip155:84532",
  chainId: 84532,
  asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  decimals: 6,
  symbol: "USDC",
  payTo: devAccounts(0).payee.address,
  maxTimeoutSeconds: 60,
  eip712: { name: "USDC", version: "2" },
};

/** When the server let go of a response and when the next request of the same call arrived. */
export interface Gap {
  sentAt?: number;
  arrivedAt?: number;
  /**
   * For a 402: just before and just after the response was written (writeHead, then end(),
   * which writes a small response to the socket synchronously), so the bytes left between the
   * two. On a loaded machine the process can lose the CPU right after that write (the browser it
   * wakes takes it), which delays `after`, and `sentAt` ("finish"), by tens of ms: `before` is
   * the tight one.
   */
  writing?: { before: number; after: number };
  /** How many paid retries arrived for this id (a payment used twice shows as 2). */
  paidArrivals?: number;
}

export interface BenchReceiver {
  /** e.g. http://127.0.0.1:41234; also the receiver id in its Quotes. */
  origin: string;
  /** Per `?id=`: the 402 sent → the paid retry arrived. */
  paid: Map<string, Gap>;
  /** Per `?id=`: the first plain 200 sent → the second plain request arrived. */
  plain: Map<string, Gap>;
  close(): Promise<void>;
}

const PAGE = "<!doctype html><meta charset=utf-8><title>bench</title><p>bench page</p>";

/**
 * A test-only Stipendex receiver on 127.0.0.1 that timestamps, on its own clock, every 402 it
 * sends and the paid retry that follows, without settling: the gap is the wallet's work.
 * Routes: `/` a page, `/small` a tiny 200, `/paid?id=` priced, `/plain?id=&step=1|2` free,
 * `/clock` this receiver's clock as epoch milliseconds (see receiverClock), open to any origin,
 * and the descriptor at `/.well-known/stipendex.json`.
 */
export async function startBenchReceiver(): Promise<BenchReceiver> {
  const paid = new Map<string, Gap>();
  const plain = new Map<string, Gap>();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const identity = await createReceiverIdentity(origin);
  const quotes = new QuoteBook(identity, RAIL);
  const descriptor = JSON.stringify(buildDescriptor(identity, { name: "Bench", rails: [RAIL] }));

  const gapOf = (book: Map<string, Gap>, id: string) => {
    const gap = book.get(id) ?? {};
    book.set(id, gap);
    return gap;
  };
  const send = (
    res: ServerResponse,
    status: number,
    type: string,
    body: string,
    cacheControl = "no-store",
  ) => {
    // Content-Length, as Express and most servers send it (Node would stream the body chunked).
    res.writeHead(status, {
      "content-type": type,
      "cache-control": cacheControl,
      "content-length": Buffer.byteLength(body),
    });
    res.end(body);
  };
  const stampWhenSent = (res: ServerResponse, gap: Gap) =>
    res.on("finish", () => {
      gap.sentAt = performance.now();
    });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const arrivedAt = performance.now();
    const url = new URL(req.url ?? "/", origin);
    const id = url.searchParams.get("id") ?? "";
    switch (url.pathname) {
      case "/":
        return send(res, 200, "text/html; charset=utf-8", PAGE);
      case "/small":
        return send(res, 200, "text/plain", "ok");
      case "/clock":
        // Read by the wallet's own pages (another origin) to relate their clock to this one.
        res.setHeader("access-control-allow-origin", "*");
        return send(res, 200, "text/plain", String(receiverClock(arrivedAt)));
      case "/.well-known/stipendex.json":
        // Cacheable, as a receiver publishes it: the wallet fetches it once, not per payment.
        return send(res, 200, "application/json", descriptor, "max-age=300");
      case "/plain": {
        const gap = gapOf(plain, id);
        if (url.searchParams.get("step") === "2") gap.arrivedAt = arrivedAt;
        else stampWhenSent(res, gap);
        return send(res, 200, "text/plain", "ok");
      }
      case "/paid": {
        const gap = gapOf(paid, id);
        if (req.headers[PAYMENT_HEADER] !== undefined) {
          gap.arrivedAt = arrivedAt;
          gap.paidArrivals = (gap.paidArrivals ?? 0) + 1;
          return send(res, 200, "application/json", '{"paid":true}');
        }
        const quote = await quotes.issue({
          resource: { http: { method: "GET", url: url.href } },
          description: `Bench call ${id}`,
          amount: BENCH_PRICE,
        });
        const body = JSON.stringify({ quote: toJsonForm("quote", quote.jws) });
        stampWhenSent(res, gap);
        const before = performance.now();
        send(res, 402, "application/json", body);
        gap.writing = { before, after: performance.now() };
        return;
      }
      default:
        return send(res, 404, "text/plain", `No bench route ${url.pathname}`);
    }
  };
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, "text/plain", String(error));
      else res.end();
    });
  });
  return {
    origin,
    paid,
    plain,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A receiver time (`performance.now()`, as Gap holds) as epoch milliseconds, the scale of a
 * browser's `performance.timeOrigin + performance.now()` and `Date.now()`, without Date.now()'s
 * whole-millisecond steps.
 */
export function receiverClock(monotonicMs: number): number {
  return performance.timeOrigin + monotonicMs;
}

/** Milliseconds of every complete gap (both ends seen), in insertion order. */
export function gapDurations(gaps: ReadonlyMap<string, Gap>): number[] {
  const durations: number[] = [];
  for (const { sentAt, arrivedAt } of gaps.values()) {
    if (sentAt !== undefined && arrivedAt !== undefined) durations.push(arrivedAt - sentAt);
  }
  return durations;
}

/**
 * Per id seen complete in both: `minuend`'s gap minus `subtrahend`'s, in
 * `minuend`'s order (e.g. a round's paid gap minus the same round's plain gap).
 */
export function pairedGapDifferences(
  minuend: ReadonlyMap<string, Gap>,
  subtrahend: ReadonlyMap<string, Gap>,
): number[] {
  const duration = ({ sentAt, arrivedAt }: Gap) =>
    sentAt === undefined || arrivedAt === undefined ? undefined : arrivedAt - sentAt;
  const differences: number[] = [];
  for (const [id, gap] of minuend) {
    const first = duration(gap);
    const other = subtrahend.get(id);
    const second = other && duration(other);
    if (first !== undefined && second !== undefined) differences.push(first - second);
  }
  return differences;
}
