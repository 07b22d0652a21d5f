import WebSocket from "ws";

/** DevTools calls made one after another on a target's WebSocket; each call's result, in order. */
export async function devtoolsCalls(
  url: string,
  calls: readonly { method: string; params?: object }[],
): Promise<unknown[]> {
  const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 1 << 30 });
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  const results: unknown[] = [];
  try {
    for (const [id, call] of calls.entries()) {
      socket.send(JSON.stringify({ id, ...call }));
      results.push(
        await new Promise((resolve, reject) => {
          const listen = (data: WebSocket.RawData) => {
            const message = JSON.parse(String(data)) as {
              id?: number;
              result?: unknown;
              error?: { message?: string };
            };
            if (message.id !== id) return;
            socket.off("message", listen);
            if (message.error) reject(new Error(`${call.method}: ${message.error.message}`));
            else resolve(message.result);
          };
          socket.on("message", listen);
        }),
      );
    }
  } finally {
    socket.close();
  }
  return results;
}
