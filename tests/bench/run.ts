import type { BenchSuite } from "./bench";
import { measure } from "./measure";
import { type BenchResult, formatReport } from "./report";
import { x402PaymentSuite } from "./x402-payment";

/** Every suite `npm run bench` runs, in order. Add a module's suite here. */
const SUITES: BenchSuite[] = [x402PaymentSuite];

const options = { warmup: 20, iterations: 200 };

async function main() {
  console.log(
    `node ${process.version}, ${options.warmup} warm-up + ${options.iterations} timed runs each\n`,
  );
  for (const suite of SUITES) {
    const results: BenchResult[] = [];
    for (const bench of suite.benches) {
      results.push({ name: bench.name, stats: await measure(await bench.prepare(), options) });
    }
    console.log(`${formatReport(suite.title, results, suite.ratios)}\n`);
  }
}

await main();
