import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { anvilBinaryPath } from "./anvil-binary";
import { AnvilExitedError, AnvilNotReadyError } from "./errors";
import { freePort } from "./free-port";

/** anvil's default mnemonic; its first ten keys are the well-known public dev keys. */
export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

export interface AnvilOptions {
  /** 0 or undefined: pick a free port. */
  port?: number;
  chainId?: number;
  readyTimeoutMs?: number;
  /**
   * Also mine an empty block every this many seconds, as a real chain does,
   * so its clock moves while nobody transacts (transactions still mine at once).
   */
  blockTimeSeconds?: number;
}

export interface AnvilProcess {
  rpcUrl: string;
  port: number;
  chainId: number;
  /** pid of the anvil process itself (not of its watchdog shell). */
  pid: number;
  stop(): Promise<void>;
}

/*
 * anvil runs under a tiny sh watchdog that holds the read end of our stdin pipe. The OS closes
 * that pipe whenever this process ends, even on SIGKILL, so the watchdog's `read` returns and it
 * kills anvil: no orphan node survives a crashed or killed test runner. The first line on stdout
 * is anvil's pid. anvil gets stdin from /dev/null and never sees fd 3.
 */
const WATCHDOG = `exec 3<&0
"$0" "$@" </dev/null 3<&- &
pid=$!
echo "$pid"
(read -r _ <&3; kill "$pid" 2>/dev/null) &
wait "$pid"`;

type Watchdog = ChildProcessByStdio<Writable, Readable, Readable>;

const STOP_GRACE_MS = 5_000;
const POLL_MS = 50;

/** Starts anvil on 127.0.0.1 with instant mining (and interval mining when asked) and waits until it answers JSON-RPC. */
export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilProcess> {
  const chainId = options.chainId ?? 31337;
  const timeoutMs = options.readyTimeoutMs ?? 20_000;
  // A picked port can be taken by someone else before anvil binds it; then pick again.
  const attempts = options.port ? 1 : 3;
  for (let attempt = 1; ; attempt++) {
    const port = options.port || (await freePort());
    try {
      return await launch(port, chainId, timeoutMs, options.blockTimeSeconds);
    } catch (error) {
      if (!(error instanceof AnvilExitedError) || attempt >= attempts) throw error;
    }
  }
}

async function launch(
  port: number,
  chainId: number,
  timeoutMs: number,
  blockTimeSeconds: number | undefined,
): Promise<AnvilProcess> {
  const args = [
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--chain-id",
    String(chainId),
    "--mnemonic",
    ANVIL_MNEMONIC,
    "--quiet",
    // Blocks final two behind the head (anvil's default is 64), so a give-back decided at
    // the finalized block (lib/chain/authorization-use.ts) follows in seconds.
    "--slots-in-an-epoch",
    "1",
    ...(blockTimeSeconds === undefined
      ? []
      : ["--block-time", String(blockTimeSeconds), "--mixed-mining"]),
  ];
  const child: Watchdog = spawn("sh", ["-c", WATCHDOG, anvilBinaryPath(), ...args], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  // Never let a forgotten stop() hold the parent open; the watchdog cleans up when it exits.
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) {
    (stream as Partial<{ unref(): void }>).unref?.();
  }
  child.stdin.on("error", () => undefined);

  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4_000);
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.once("error", () => resolve(null));
  });
  const rpcUrl = `http://127.0.0.1:${port}`;

  const stopWatchdog = async (anvilPid: number | undefined) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin.end();
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      exited.then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), STOP_GRACE_MS);
      }),
    ]);
    clearTimeout(timer);
    if (!finished) {
      if (anvilPid !== undefined) killQuietly(anvilPid, "SIGKILL");
      child.kill("SIGKILL");
      await exited;
    }
  };

  try {
    // The poll's timers keep this process alive while the unref'd child starts.
    const [pid, ready] = await Promise.race([
      Promise.all([
        firstLine(child.stdout).then(Number),
        waitForRpc(rpcUrl, chainId, timeoutMs, () => child.exitCode === null),
      ]),
      exited.then((code) => Promise.reject(new AnvilExitedError(port, code, stderr))),
    ]);
    if (!ready) throw new AnvilNotReadyError(rpcUrl, timeoutMs);
    // Answering is not enough if another node owned the port and ours died on bind.
    if (child.exitCode !== null) throw new AnvilExitedError(port, child.exitCode, stderr);

    const killOnExit = () => killQuietly(pid, "SIGTERM");
    process.once("exit", killOnExit);
    return {
      rpcUrl,
      port,
      chainId,
      pid,
      stop: async () => {
        process.off("exit", killOnExit);
        await stopWatchdog(pid);
      },
    };
  } catch (error) {
    await stopWatchdog(undefined);
    throw error;
  }
}

function firstLine(stream: Readable): Promise<string> {
  return new Promise((resolve) => {
    let buffered = "";
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const newline = buffered.indexOf("\n");
      if (newline >= 0) {
        stream.off("data", onData);
        resolve(buffered.slice(0, newline).trim());
      }
    };
    stream.on("data", onData);
  });
}

/** true once `eth_chainId` answers with the expected id; false after the timeout or on exit. */
async function waitForRpc(
  rpcUrl: string,
  chainId: number,
  timeoutMs: number,
  isRunning: () => boolean,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && isRunning()) {
    try {
      const response = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
        signal: AbortSignal.timeout(1_000),
      });
      const body = (await response.json()) as { result?: unknown };
      if (body.result === `0x${chainId.toString(16)}`) return true;
    } catch {
      // Not listening yet.
    }
    await delay(POLL_MS);
  }
  return false;
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
