import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  canReadProcesses,
  cpuSpent,
  processKind,
  processTree,
  processWithArgument,
} from "./process-cpu";

describe("processKind", () => {
  it("names Chromium's processes by --type, the extension's renderer and each utility service", () => {
    expect(
      processKind(["/usr/lib/chromium/chromium", "--headless", "--user-data-dir=/tmp/p"]),
    ).toBe("browser process");
    expect(processKind(["chromium", "--type=renderer", "--lang=en-US"])).toBe("page renderer");
    expect(processKind(["chromium", "--type=renderer", "--extension-process"])).toBe(
      "extension process",
    );
    expect(
      processKind([
        "chromium",
        "--type=utility",
        "--utility-sub-type=network.mojom.NetworkService",
      ]),
    ).toBe("network service");
    expect(
      processKind([
        "chromium",
        "--type=utility",
        "--utility-sub-type=storage.mojom.StorageService",
      ]),
    ).toBe("storage service");
    expect(processKind(["chromium", "--type=gpu-process"])).toBe("gpu-process");
  });

  it("names Firefox's children by the name each process gives itself", () => {
    const child = [
      "firefox-esr",
      "-contentproc",
      "-appDir",
      "/usr/lib/firefox-esr/browser",
      "4",
      "tab",
    ];
    expect(processKind(["/usr/bin/firefox-esr", "--headless"], "firefox-esr")).toBe(
      "browser process",
    );
    expect(processKind(child, "WebExtensions")).toBe("extension process");
    expect(processKind(child, "Web Content")).toBe("web content process");
    expect(processKind(child, "Isolated Web Co")).toBe("web content process");
    expect(processKind(child, "Socket Process")).toBe("socket process");
  });
});

describe("cpuSpent", () => {
  it("adds up what each kind used between two readings; a new process counts from zero", () => {
    const before = new Map([
      [1, { kind: "browser process", cpuMs: 100 }],
      [2, { kind: "page renderer", cpuMs: 50 }],
    ]);
    const after = new Map([
      [1, { kind: "browser process", cpuMs: 130 }],
      [2, { kind: "page renderer", cpuMs: 60 }],
      [3, { kind: "page renderer", cpuMs: 40 }],
    ]);
    expect(cpuSpent(before, after)).toEqual([
      ["page renderer", 50],
      ["browser process", 30],
    ]);
  });
});

describe.runIf(canReadProcesses())("processTree", () => {
  it("finds a process by its marker and reads the CPU it has burnt", async () => {
    const marker = `--bench-marker-${process.pid}-${Date.now()}`;
    const child = spawn(
      process.execPath,
      [
        "-e",
        "const end = Date.now() + 300; while (Date.now() < end); setTimeout(() => {}, 10000);",
        "--",
        marker,
      ],
      { stdio: "ignore" },
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const pid = processWithArgument(marker);
      expect(pid).toBe(child.pid);
      const tree = processTree(process.pid);
      expect(tree.get(child.pid ?? -1)?.cpuMs).toBeGreaterThanOrEqual(200);
      expect(tree.has(process.pid)).toBe(true);
    } finally {
      child.kill();
    }
  });
});
