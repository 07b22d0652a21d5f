import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "./free-port";

describe("freePort", () => {
  it("returns a port that can be listened on right away", async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(1023);
    expect(port).toBeLessThan(65536);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });
});
