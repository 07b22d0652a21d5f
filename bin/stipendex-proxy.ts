import { realpathSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { PROVIDER_VERSION } from "../lib/messages";
import { channelPlace } from "../lib/proxy/channel";
import { parseCommand, USAGE } from "../lib/proxy/cli-args";
import { isProxyError, ProxyError } from "../lib/proxy/errors";
import { createForwardingServer } from "../lib/proxy/forward";
import {
  defaultTargets,
  installHost,
  isInstalled,
  uninstallHost,
  userDataDirTarget,
} from "../lib/proxy/install";
import { runNativeHost } from "../lib/proxy/native-host";
import { serveStdio } from "../lib/proxy/stdio";
import { channelWallet, WalletChannel } from "../lib/proxy/wallet-channel";

/*
 * `stipendex-proxy`: wiring only (lib/proxy/ holds the logic). Built into one
 * file by `npm run build:proxy` (run by postinstall), which package.json's
 * `bin` names. Diagnostics go to stderr: stdout is the MCP host's, or in
 * native-host mode the browser's.
 */

async function main(): Promise<void> {
  if (process.platform === "win32" || process.getuid === undefined) {
    throw new ProxyError("usage", "stipendex-proxy runs on Linux and macOS (not Windows yet)");
  }
  const uid = process.getuid();
  const command = parseCommand(process.argv.slice(2));
  const place = channelPlace(process.env, tmpdir(), uid);
  const targetsOf = (dirs: string[]) =>
    dirs.length > 0 ? dirs.map(userDataDirTarget) : defaultTargets(homedir(), process.platform);
  switch (command.mode) {
    case "help":
      process.stdout.write(`${USAGE}\n`);
      return;
    case "install": {
      const written = await installHost({
        targets: targetsOf(command.browserDirs),
        onlyFound: command.browserDirs.length === 0,
        node: process.execPath,
        bin: realpathSync(fileURLToPath(import.meta.url)),
        ...(command.chromeExtensionId ? { chromiumExtensionId: command.chromeExtensionId } : {}),
      });
      if (written.length === 0) {
        throw new ProxyError(
          "usage",
          "Found no Chromium, Chrome or Firefox profile in your home directory; name one with --browser-dir",
        );
      }
      process.stdout.write(
        `Installed the Stipendex wallet's link for desktop apps:\n${written.map((p) => `  ${p}`).join("\n")}\nRestart the browser (or reload the wallet) so it connects.\n`,
      );
      return;
    }
    case "uninstall": {
      const removed = await uninstallHost([
        ...targetsOf(command.browserDirs),
        ...(command.browserDirs.length > 0 ? defaultTargets(homedir(), process.platform) : []),
      ]);
      process.stdout.write(
        removed.length === 0
          ? "Nothing to remove: the link was not installed.\n"
          : `Removed:\n${removed.map((p) => `  ${p}`).join("\n")}\n`,
      );
      return;
    }
    case "native-host":
      await runNativeHost({
        input: process.stdin,
        output: process.stdout,
        place,
        uid,
        log: (line) => process.stderr.write(`stipendex native host: ${line}\n`),
      });
      return;
    case "proxy": {
      const lookIn = [
        ...defaultTargets(homedir(), process.platform),
        ...command.browserDirs.map(userDataDirTarget),
      ];
      const channel = new WalletChannel(
        { ...place, uid, installed: () => isInstalled(lookIn) },
        command.upstream.href,
      );
      const { server, ended } = createForwardingServer({
        upstream: command.upstream,
        wallet: channelWallet(channel),
        version: PROVIDER_VERSION,
      });
      await serveStdio(server);
      await ended;
      channel.close();
      return;
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const message = isProxyError(error) || error instanceof Error ? error.message : String(error);
    process.stderr.write(`stipendex-proxy: ${message}\n`);
    process.exit(1);
  },
);
