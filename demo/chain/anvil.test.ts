import { execFile, spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { startAnvil } from "./anvil";
import { AnvilExitedError } from "./errors";

const run = promisify(execFile);

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return ((await response.json()) as { result: unknown }).result;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntilDead(pid: number, ms = 5_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(pid);
}

describe("startAnvil", () => {
  it("serves JSON-RPC on a free port with the chosen chain id, instant mining, and stops", async () => {
    const anvil = await startAnvil({ chainId: 84532 });
    try {
      expect(anvil.rpcUrl).toBe(`http://127.0.0.1:${anvil.port}`);
      expect(await rpc(anvil.rpcUrl, "eth_chainId")).toBe("0x14a34");
      expect(await rpc(anvil.rpcUrl, "web3_clientVersion")).toMatch(/^anvil\//);
      expect(await rpc(anvil.rpcUrl, "anvil_getAutomine")).toBe(true);
      const accounts = (await rpc(anvil.rpcUrl, "eth_accounts")) as string[];
      expect(accounts[0]?.toLowerCase()).toBe("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
      expect(isAlive(anvil.pid)).toBe(true);
      const { stdout } = await run("ps", ["-o", "comm=", "-p", String(anvil.pid)]);
      expect(stdout.trim()).toBe("anvil");
    } finally {
      await anvil.stop();
    }
    expect(isAlive(anvil.pid)).toBe(false);
    await expect(rpc(anvil.rpcUrl, "eth_chainId")).rejects.toThrow();
    await anvil.stop();
  });

  it("with a block time, mines empty blocks while idle and still mines a transaction sent meanwhile", async () => {
    const anvil = await startAnvil({ blockTimeSeconds: 1 });
    try {
      const head = async () => Number(await rpc(anvil.rpcUrl, "eth_blockNumber"));
      const start = await head();
      await new Promise((resolve) => setTimeout(resolve, 2_200));
      const idle = await head();
      expect(idle).toBeGreaterThan(start);
      const [from, to] = (await rpc(anvil.rpcUrl, "eth_accounts")) as string[];
      const sent = Date.now();
      const hash = await rpc(anvil.rpcUrl, "eth_sendTransaction", [{ from, to, value: "0x1" }]);
      // Mined as it comes (mixed mining), though on a busy machine the send may answer first.
      type Receipt = { status: string } | null;
      let receipt: Receipt = null;
      while (!receipt && Date.now() - sent < 5_000) {
        receipt = (await rpc(anvil.rpcUrl, "eth_getTransactionReceipt", [hash])) as Receipt;
        if (!receipt) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(receipt?.status).toBe("0x1");
    } finally {
      await anvil.stop();
    }
  });

  it("fails with anvil's own message when the given port is taken", async () => {
    // Hang up on everyone, so our readiness poll leaves no open connection behind.
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    try {
      const failure = startAnvil({ port });
      await expect(failure).rejects.toBeInstanceOf(AnvilExitedError);
      await expect(failure).rejects.toThrow(new RegExp(`port ${port}.*(in use|Address)`, "s"));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("dies with its parent even when the parent is SIGKILLed", async () => {
    const anvilModule = fileURLToPath(new URL("./anvil.ts", import.meta.url));
    const parent = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `const { startAnvil } = await import(${JSON.stringify(anvilModule)});
         const anvil = await startAnvil();
         console.log(anvil.pid);
         setInterval(() => {}, 60_000);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const pid = await new Promise<number>((resolve, reject) => {
      parent.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      parent.once("exit", (code) => reject(new Error(`parent exited early with ${code}`)));
    });
    expect(isAlive(pid)).toBe(true);
    parent.kill("SIGKILL");
    expect(await waitUntilDead(pid)).toBe(true);
  });
});
