import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProxyError } from "./errors";
import { assertOwnDirectory } from "./wallet-channel";

const uid = process.getuid?.() ?? 0;
const missing = async () => new ProxyError("wallet-not-running", "no channel directory");

describe("assertOwnDirectory", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "stipendex-channel-"));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("accepts this user's own directory of mode 0700", async () => {
    const own = join(root, "own");
    await mkdir(own, { mode: 0o700 });
    await expect(assertOwnDirectory(own, uid, missing)).resolves.toBeUndefined();
  });

  it("refuses a symlink to such a directory (one planted in a shared /tmp), not following it", async () => {
    // Whoever owns the link (in sticky /tmp: whoever made it) could re-point it between the check and the connect.
    const real = join(root, "elsewhere");
    await mkdir(real, { mode: 0o700 });
    const planted = join(root, `stipendex-${uid}`);
    await symlink(real, planted);
    await expect(assertOwnDirectory(planted, uid, missing)).rejects.toMatchObject({
      name: "ProxyError",
      code: "channel-unsafe",
    });
  });

  it("says what is missing when there is no directory", async () => {
    await expect(assertOwnDirectory(join(root, "none"), uid, missing)).rejects.toMatchObject({
      code: "wallet-not-running",
    });
  });
});
