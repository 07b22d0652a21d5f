import { access, chmod, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { NATIVE_HOST_NAME } from "../messages";
import { CHROMIUM_EXTENSION_ID, GECKO_ID } from "./extension-ids";

export type BrowserFamily = "chromium" | "firefox";

/** A place a browser reads native messaging host manifests from. */
export interface HostTarget {
  browser: string;
  family: BrowserFamily;
  /** The browser's own directory: when it is absent the browser is not installed for this user. */
  browserDir: string;
  /** Where the manifest goes (the browser's NativeMessagingHosts directory). */
  hostsDir: string;
}

/** Per-user manifest places on Linux and macOS (Chromium's docs; Firefox's MDN page). */
export function defaultTargets(home: string, platform: NodeJS.Platform): HostTarget[] {
  const chromium = (browser: string, browserDir: string): HostTarget => ({
    browser,
    family: "chromium",
    browserDir,
    hostsDir: join(browserDir, "NativeMessagingHosts"),
  });
  if (platform === "darwin") {
    const support = join(home, "Library", "Application Support");
    return [
      chromium("Chromium", join(support, "Chromium")),
      chromium("Google Chrome", join(support, "Google", "Chrome")),
      {
        browser: "Firefox",
        family: "firefox",
        browserDir: join(support, "Mozilla"),
        hostsDir: join(support, "Mozilla", "NativeMessagingHosts"),
      },
    ];
  }
  return [
    chromium("Chromium", join(home, ".config", "chromium")),
    chromium("Google Chrome", join(home, ".config", "google-chrome")),
    {
      browser: "Firefox",
      family: "firefox",
      browserDir: join(home, ".mozilla"),
      hostsDir: join(home, ".mozilla", "native-messaging-hosts"),
    },
  ];
}

/** A Chromium-family profile started with `--user-data-dir=<dir>` reads `<dir>/NativeMessagingHosts/`. */
export function userDataDirTarget(dir: string): HostTarget {
  return {
    browser: `Chromium profile ${dir}`,
    family: "chromium",
    browserDir: dir,
    hostsDir: join(dir, "NativeMessagingHosts"),
  };
}

/** The manifest a browser of `family` needs to let the wallet start the host at `path`. */
export function hostManifest(
  family: BrowserFamily,
  path: string,
  chromiumExtensionId: string = CHROMIUM_EXTENSION_ID,
): Record<string, unknown> {
  return {
    name: NATIVE_HOST_NAME,
    description: "Stipendex Wallet: pays desktop MCP apps' tool calls through the browser wallet",
    path,
    type: "stdio",
    ...(family === "firefox"
      ? { allowed_extensions: [GECKO_ID] }
      : { allowed_origins: [`chrome-extension://${chromiumExtensionId}/`] }),
  };
}

/**
 * The executable a manifest names: the browser passes it no arguments of
 * ours, so a small script runs this very bin in its native-host mode, with
 * the Node that installed it.
 */
export function launcherScript(node: string, bin: string): string {
  const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  return `#!/bin/sh\n# Written by \`stipendex-proxy install\`; removed by \`stipendex-proxy uninstall\`.\nexec ${quote(node)} ${quote(bin)} native-host "$@"\n`;
}

export interface InstallOptions {
  targets: HostTarget[];
  /** Install only where the browser's directory exists (true for the default places). */
  onlyFound: boolean;
  node: string;
  bin: string;
  chromiumExtensionId?: string;
}

/** Writes the launcher and manifest for each target found; returns the manifests written. */
export async function installHost(options: InstallOptions): Promise<string[]> {
  const written: string[] = [];
  for (const target of options.targets) {
    if (options.onlyFound && !(await exists(target.browserDir))) continue;
    await mkdir(target.hostsDir, { recursive: true });
    const launcher = join(target.hostsDir, `${NATIVE_HOST_NAME}.sh`);
    await writeFile(launcher, launcherScript(options.node, options.bin));
    await chmod(launcher, 0o755);
    const manifest = join(target.hostsDir, `${NATIVE_HOST_NAME}.json`);
    const content = hostManifest(target.family, launcher, options.chromiumExtensionId);
    await writeFile(manifest, `${JSON.stringify(content, null, 2)}\n`);
    written.push(manifest);
  }
  return written;
}

/** Removes what installHost wrote; returns the manifests removed. */
export async function uninstallHost(targets: HostTarget[]): Promise<string[]> {
  const removed: string[] = [];
  for (const target of targets) {
    const manifest = join(target.hostsDir, `${NATIVE_HOST_NAME}.json`);
    if (!(await exists(manifest))) continue;
    await rm(manifest, { force: true });
    await rm(join(target.hostsDir, `${NATIVE_HOST_NAME}.sh`), { force: true });
    removed.push(manifest);
  }
  return removed;
}

/** Whether any target has the manifest: the link was installed for some browser. */
export async function isInstalled(targets: HostTarget[]): Promise<boolean> {
  for (const target of targets) {
    if (await exists(join(target.hostsDir, `${NATIVE_HOST_NAME}.json`))) return true;
  }
  return false;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
