import type { BenchSuite } from "./bench";
import { measure } from "./measure";
import { formatReport } from "./report";
import { stipendexProofSuite } from "./stipendex-proof";
import { x402PaymentSuite } from "./x402-payment";

/** Every suite `npm run bench` runs, in order. Add a module's suite here. */
const SUITES: BenchSuite[] = [x402PaymentSuite, stipendexProofSuite];

const options = { warmup: 20, iterations: 200 };

async function main() {
  console.log(
    `node ${process.version}, ${options.warmup} warm-up + ${options.iterations} timed rounds, benches of a suite interleaved\n`,
  );
  for (const suite of SUITES) {
    const operations = await Promise.all(suite.benches.map((bench) => bench.prepare()));
    const stats = await measure(operations, options);
    const results = suite.benches.map((bench, index) => {
      const measured = stats[index];
      if (!measured) throw new Error(`bench "${bench.name}" was not measured`);
      return { name: bench.name, stats: measured };
    });
    console.log(`${formatReport(suite.title, results, suite.ratios)}\n`);
  }
}

await main();
