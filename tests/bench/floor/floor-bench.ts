import { pollFor } from "../../e2e/support/wait";
import { type BareTab, openBareTab } from "../bare-chromium";
import type { BrowserBench, Ratio } from "../bench";
import { startBenchReceiver } from "../bench-receiver";
import { sampleRounds } from "../measure";
import type { BenchResult } from "../report";
import { summarize } from "../stats";
import { STIPENDEX_PROOF, stipendexProofSuite } from "../stipendex-proof";
import { buildFloorExtension } from "./floor-extension";
import { FLOOR_KINDS, type FloorKind } from "./floor-kinds";

const SIGNATURES = `Node: ${STIPENDEX_PROOF}`;
/** Slices of rounds, the signatures timed in Node after each (as the wallet's own bench does). */
const SLICES = 10;

/**
 * Waits for the floor's page script: the tab can load before Chromium has registered the
 * extension's content scripts, and then needs loading again.
 */
async function untilHooked(tab: BareTab): Promise<void> {
  const hooked = "typeof window.stipendexFloor === 'function'";
  await pollFor(
    async () => {
      if (await tab.evaluate(hooked)) return true;
      await tab.evaluate("location.reload()");
      await new Promise((resolve) => setTimeout(resolve, 500));
      return (await tab.evaluate(`document.readyState === 'complete' && ${hooked}`)) as boolean;
    },
    "the floor extension's page script",
    15_000,
    0,
  );
}

/** `rounds` rounds in the page, each calling every kind once in turn; ms by kind (page clock). */
function roundsInPage(
  tab: { evaluate(expression: string): Promise<unknown> },
  rounds: number,
): Promise<Record<FloorKind, number[]>> {
  const kinds = JSON.stringify(Object.keys(FLOOR_KINDS));
  return tab.evaluate(`(async () => {
    const times = Object.fromEntries(${kinds}.map((kind) => [kind, []]));
    for (let i = 0; i < ${rounds}; i++) {
      for (const kind of ${kinds}) {
        const start = performance.now();
        await window.stipendexFloor(kind);
        times[kind].push(performance.now() - start);
      }
    }
    return times;
  })()`) as Promise<Record<FloorKind, number[]>>;
}

/**
 * What no wallet built as this one is can go under in Chromium: the wallet's own hook bridge,
 * relay and page port around a worker that, for an automatic payment, makes the one ledger
 * transaction (on the wallet's schema, over 4,000 payments) and the signatures, committed
 * before it answers — none of the wallet's other work. Beside the wallet's own time in the
 * bench above, it shows how much of that time the design itself takes.
 */
export const floorBench: BrowserBench = {
  title:
    "The floor under the wallet in Chromium: its hops, one ledger transaction and the signatures, nothing else",
  async run({ quick }) {
    const warmup = quick ? 5 : 20;
    const timed = quick ? 20 : 200;
    const [extension, receiver] = await Promise.all([buildFloorExtension(), startBenchReceiver()]);
    try {
      const tab = await openBareTab(receiver.origin, { withWallet: false, extension });
      try {
        const [proof] = stipendexProofSuite.benches;
        if (!proof) throw new Error("the Stipendex Proof suite has no bench");
        const sign = await proof.prepare();
        await untilHooked(tab);
        await roundsInPage(tab, warmup);
        const kinds = Object.keys(FLOOR_KINDS) as FloorKind[];
        const samples = new Map<FloorKind, number[]>(kinds.map((kind) => [kind, []]));
        const signing: number[] = [];
        for (let slice = 0; slice < SLICES; slice++) {
          const rounds =
            Math.round(((slice + 1) * timed) / SLICES) - Math.round((slice * timed) / SLICES);
          const times = await roundsInPage(tab, rounds);
          for (const kind of kinds) samples.get(kind)?.push(...times[kind]);
          const [signed = []] = await sampleRounds([sign], {
            warmup: slice === 0 ? warmup : 0,
            iterations: rounds,
          });
          signing.push(...signed);
        }
        const results: BenchResult[] = [
          ...kinds.map((kind) => ({
            name: FLOOR_KINDS[kind],
            stats: summarize(samples.get(kind) ?? []),
          })),
          { name: SIGNATURES, stats: summarize(signing) },
        ];
        const ratios: Ratio[] = kinds.map((kind) => ({
          label: `${kind.replace("_", " ")} / signatures alone`,
          numerator: FLOOR_KINDS[kind],
          denominator: SIGNATURES,
        }));
        return [
          {
            kind: "timings",
            title: `${timed} rounds after ${warmup} warm-up, each kind once a round, page clock`,
            results,
            ratios,
            notes: [
              "floor paid is the least the wallet's own time (402 -> paid retry, minus the plain gap) can be with the charge",
              "committed before the signed payment leaves: no price read, Quote check, policy, Dexie, history view or receipt.",
            ],
          },
        ];
      } finally {
        await tab.close();
      }
    } finally {
      await receiver.close();
    }
  },
};
