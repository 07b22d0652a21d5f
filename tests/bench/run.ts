import type { BenchSuite, BrowserBench } from "./bench";
import { bundleSizesBench } from "./bundle-sizes";
import { confirmWindowBench } from "./confirm-window";
import { fetchThroughputBench } from "./fetch-throughput";
import { floorBench } from "./floor/floor-bench";
import { history100kBench } from "./history-100k";
import { measure } from "./measure";
import { paidFetchBench, paidFetchFirefoxBench } from "./paid-fetch";
import { formatReport, formatSection } from "./report";
import { soakBench } from "./soak";
import { stipendexProofSuite } from "./stipendex-proof";
import { x402PaymentSuite } from "./x402-payment";

/** Every suite `npm run bench` runs, in order. Add a module's suite or browser bench here. */
const SUITES: (BenchSuite | BrowserBench)[] = [
  x402PaymentSuite,
  stipendexProofSuite,
  paidFetchBench,
  paidFetchFirefoxBench,
  floorBench,
  confirmWindowBench,
  fetchThroughputBench,
  history100kBench,
  bundleSizesBench,
  soakBench,
];

// `npm run bench -- --quick` for short runs while developing; `--only=<text>` picks suites by title.
const quick = process.argv.includes("--quick");
const only = process.argv.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);
const options = quick ? { warmup: 5, iterations: 20 } : { warmup: 20, iterations: 200 };

async function runSuite(suite: BenchSuite): Promise<string> {
  const operations = await Promise.all(suite.benches.map((bench) => bench.prepare()));
  const stats = await measure(operations, options);
  const results = suite.benches.map((bench, index) => {
    const measured = stats[index];
    if (!measured) throw new Error(`bench "${bench.name}" was not measured`);
    return { name: bench.name, stats: measured };
  });
  return formatReport(suite.title, results, suite.ratios);
}

async function main() {
  console.log(
    `node ${process.version}, ${options.warmup} warm-up + ${options.iterations} timed rounds, benches of a suite interleaved${quick ? " (quick)" : ""}\n`,
  );
  for (const suite of SUITES) {
    if (only && !suite.title.toLowerCase().includes(only.toLowerCase())) continue;
    if ("benches" in suite) {
      console.log(`${await runSuite(suite)}\n`);
      continue;
    }
    console.log(`== ${suite.title} ==`);
    for (const section of await suite.run({ quick })) console.log(`${formatSection(section)}\n`);
  }
}

await main();
