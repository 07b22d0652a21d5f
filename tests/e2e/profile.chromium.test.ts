import assert from "node:assert/strict";
import { lstat, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { type Demo, startDemo } from "../../demo/server";
import { type ChromiumSession, launchChromium } from "./support/chromium";
import { allowOrigin, callWallet, setUpWallet } from "./support/wallet-chromium";

const TIMEOUT = { timeout: 90_000 };
const PASSWORD = "a long and careful passphrase";

/** Every way a string may sit in a file: UTF-8/Latin-1, and UTF-16 of either byte order (V8, IndexedDB keys). */
function stringForms(text: string): Buffer[] {
  const le = Buffer.from(text, "utf16le");
  const be = Buffer.from(le);
  be.swap16();
  return [Buffer.from(text, "latin1"), le, be];
}

/** The private key in every encoding we look for, by name. */
function keyForms(privateKey: string): Map<string, Buffer[]> {
  const raw = Buffer.from(privateKey.replace(/^0x/i, ""), "hex");
  assert.equal(raw.length, 32);
  const hex = raw.toString("hex");
  return new Map([
    ["hex", stringForms(hex)],
    ["HEX", stringForms(hex.toUpperCase())],
    ["0x hex", stringForms(`0x${hex}`)],
    ["0x HEX", stringForms(`0x${hex.toUpperCase()}`)],
    // Unpadded, so a padded or unpadded copy both match.
    ["base64", stringForms(raw.toString("base64").replace(/=+$/, ""))],
    ["base64url", stringForms(raw.toString("base64url"))],
    ["raw bytes", [raw]],
  ]);
}

interface Finding {
  file: string;
  form: string;
}

/** Reads every regular file under `dir` (symlinks not followed) and reports each form found. */
async function scan(
  dir: string,
  forms: Map<string, Buffer[]>,
): Promise<{ files: string[]; found: Finding[] }> {
  const files: string[] = [];
  const found: Finding[] = [];
  const walk = async (path: string): Promise<void> => {
    const info = await lstat(path);
    if (info.isDirectory()) {
      for (const name of await readdir(path)) await walk(join(path, name));
      return;
    }
    if (!info.isFile()) return;
    const content = await readFile(path).catch(() => undefined);
    if (!content) return;
    files.push(relative(dir, path));
    for (const [form, needles] of forms) {
      if (needles.some((needle) => content.includes(needle))) {
        found.push({ file: relative(dir, path), form });
      }
    }
  };
  await walk(dir);
  return { files, found };
}

describe(
  "Profile on disk in Chromium: the private key is never written in the clear",
  TIMEOUT,
  () => {
    let demo: Demo;
    let profile: string;
    let browser: ChromiumSession | undefined;
    let privateKey: `0x${string}`;
    let address: string;

    before(async () => {
      demo = await startDemo();
      const payer = demo.chain.accounts.payers[1];
      assert.ok(payer);
      privateKey = payer.privateKey;
      address = payer.address;
      profile = await mkdtemp(join(tmpdir(), "stipendex-profile-"));
    }, TIMEOUT);

    after(async () => {
      await browser?.close().catch(() => undefined);
      await demo?.stop();
      if (profile) await rm(profile, { recursive: true, force: true });
    });

    it("finds a planted key in every encoding (the scanner works)", async () => {
      const planted = await mkdtemp(join(tmpdir(), "stipendex-planted-"));
      try {
        const forms = keyForms(privateKey);
        for (const [form, [first, utf16le]] of forms) {
          const slug = form.replace(/\W+/g, "-");
          await writeFile(
            join(planted, `${slug}.bin`),
            Buffer.concat([Buffer.from("…pre…"), first ?? Buffer.alloc(0), Buffer.from("…post")]),
          );
          if (utf16le) await writeFile(join(planted, `${slug}.utf16.bin`), utf16le);
        }
        await writeFile(join(planted, "clean.bin"), Buffer.from("nothing here"));
        const { files, found } = await scan(planted, forms);
        assert.equal(files.length, 14, "7 forms, 6 of them also as UTF-16, and a clean file");
        for (const form of forms.keys()) {
          assert.ok(
            found.some((f) => f.form === form),
            `the scanner missed the ${form} form`,
          );
        }
        assert.ok(!found.some((f) => f.file === "clean.bin"));
      } finally {
        await rm(planted, { recursive: true, force: true });
      }
    });

    it("creates, locks, unlocks and pays; the closed profile holds no copy of the key", async () => {
      browser = await launchChromium({ withWallet: true, userDataDir: profile });
      const wallet: Page = await setUpWallet(browser, privateKey, PASSWORD);
      assert.equal(
        (await callWallet(wallet, { method: "ui_lock", params: undefined })).locked,
        true,
      );
      const unlocked = await callWallet(wallet, {
        method: "ui_unlock",
        params: { password: PASSWORD },
      });
      assert.equal(unlocked.locked, false);
      assert.equal(unlocked.address?.toLowerCase(), address.toLowerCase());

      const agentOrigin = new URL(demo.urls.agent).origin;
      await allowOrigin(wallet, agentOrigin, { amount: "1000000", autoApproveUpTo: "100000" });
      const agent = await browser.context.newPage();
      await agent.goto(demo.urls.agent);
      await agent.locator("body[data-ready=true]").waitFor();
      const searches = [
        ["Search (Stipendex)", "result-stipendex-http"],
        ["Search (x402 v1)", "result-x402-v1"],
        ["Search (x402 v2)", "result-x402-v2"],
        ["Search (Stipendex)", "result-stipendex-http"],
      ] as const;
      for (const [button, result] of searches) {
        await agent.getByRole("button", { name: button }).click();
        const output = agent.getByTestId(result);
        await agent
          .locator(`[data-testid="${result}"][data-state="done"]`)
          .waitFor({ timeout: 20_000 });
        assert.match((await output.textContent()) ?? "", /"status": 200/, `${button} was paid`);
        await agent.evaluate(
          (id) =>
            document.querySelector(`[data-testid="${id}"]`)?.setAttribute("data-state", "idle"),
          result,
        );
      }
      const { rows } = await callWallet(wallet, {
        method: "ui_listPayments",
        params: { filter: { origin: agentOrigin }, offset: 0, limit: 50 },
      });
      assert.equal(rows.length, searches.length);
      await browser.close();
      browser = undefined;

      const { files, found } = await scan(profile, keyForms(privateKey));
      assert.ok(
        files.some((f) => f.includes("Local Extension Settings")),
        "storage.local was scanned",
      );
      assert.ok(
        files.some((f) => f.includes("IndexedDB")),
        "IndexedDB was scanned",
      );
      assert.deepEqual(found, [], `the private key is on disk: ${JSON.stringify(found)}`);
      // The same scan does see wallet data: the payer's (public) address is stored.
      const addressForms = new Map([
        [
          "address",
          [
            ...stringForms(address),
            ...stringForms(address.toLowerCase()),
            Buffer.from(address.slice(2), "hex"),
          ],
        ],
      ]);
      assert.notDeepEqual(
        (await scan(profile, addressForms)).found,
        [],
        "the wallet's data is in the scanned profile",
      );
    });
  },
);
