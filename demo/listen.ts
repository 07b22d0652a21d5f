import type { Server } from "node:http";
import type { Express } from "express";

export interface Listening {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

/** Serves `app` on 127.0.0.1 only; port 0 picks a free one. */
export function listen(app: Express, port: number): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, "127.0.0.1", (error?: Error) => {
      if (error) return reject(error);
      const address = server.address();
      const actual = typeof address === "object" && address ? address.port : port;
      resolve({
        server,
        port: actual,
        url: `http://127.0.0.1:${actual}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
    server.once("error", reject);
  });
}
