import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CHROMIUM_EXTENSION_ID, GECKO_ID } from "./extension-ids";
import {
  defaultTargets,
  installHost,
  isInstalled,
  launcherScript,
  uninstallHost,
  userDataDirTarget,
} from "./install";

describe("installing the native host", () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "stipendex-install-"));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it("writes manifests only for the browsers found, each in its own format", async () => {
    mkdirSync(join(home, ".config", "chromium"), { recursive: true });
    mkdirSync(join(home, ".mozilla"), { recursive: true });
    const targets = defaultTargets(home, "linux");
    const written = await installHost({
      targets,
      onlyFound: true,
      node: "/usr/bin/node",
      bin: "/opt/wallet/dist/stipendex-proxy.mjs",
    });
    const chromium = join(home, ".config/chromium/NativeMessagingHosts/dev.stipendex.wallet.json");
    const firefox = join(home, ".mozilla/native-messaging-hosts/dev.stipendex.wallet.json");
    expect(written).toEqual([chromium, firefox]);
    expect(existsSync(join(home, ".config", "google-chrome"))).toBe(false);

    const chromiumManifest = JSON.parse(readFileSync(chromium, "utf8"));
    expect(chromiumManifest).toMatchObject({
      name: "dev.stipendex.wallet",
      type: "stdio",
      allowed_origins: [`chrome-extension://${CHROMIUM_EXTENSION_ID}/`],
    });
    const firefoxManifest = JSON.parse(readFileSync(firefox, "utf8"));
    expect(firefoxManifest).toMatchObject({ allowed_extensions: [GECKO_ID] });
    // The manifest names an absolute executable: the launcher beside it.
    expect(statSync(chromiumManifest.path).mode & 0o111).not.toBe(0);
    expect(await isInstalled(targets)).toBe(true);

    expect(await uninstallHost(targets)).toEqual([chromium, firefox]);
    expect(existsSync(chromiumManifest.path)).toBe(false);
    expect(await isInstalled(targets)).toBe(false);
  });

  it("installs into a named Chromium user data dir, with another extension id when asked", async () => {
    const profile = join(home, "profile");
    const [manifest] = await installHost({
      targets: [userDataDirTarget(profile)],
      onlyFound: false,
      node: "/usr/bin/node",
      bin: "/x.mjs",
      chromiumExtensionId: "abcdefghijklmnopabcdefghijklmnop",
    });
    expect(manifest).toBe(join(profile, "NativeMessagingHosts", "dev.stipendex.wallet.json"));
    expect(JSON.parse(readFileSync(manifest ?? "", "utf8")).allowed_origins).toEqual([
      "chrome-extension://abcdefghijklmnopabcdefghijklmnop/",
    ]);
  });

  it("puts macOS manifests under Application Support", () => {
    const hostsDirs = defaultTargets("/Users/a", "darwin").map((target) => target.hostsDir);
    expect(hostsDirs).toEqual([
      "/Users/a/Library/Application Support/Chromium/NativeMessagingHosts",
      "/Users/a/Library/Application Support/Google/Chrome/NativeMessagingHosts",
      "/Users/a/Library/Application Support/Mozilla/NativeMessagingHosts",
    ]);
  });

  it("writes a launcher that runs the bin's native-host mode, passing the browser's arguments", () => {
    const dir = join(home, "it's here");
    mkdirSync(dir);
    const script = launcherScript("/bin/echo", dir);
    const path = join(home, "launcher.sh");
    execFileSync("sh", ["-c", `cat > '${path}'`], { input: script });
    const out = execFileSync("sh", [path, "chrome-extension://id/"]).toString();
    expect(out).toBe(`${dir} native-host chrome-extension://id/\n`);
  });
});
