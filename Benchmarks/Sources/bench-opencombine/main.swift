// bench-opencombine: the issue 8 scenarios (Scenarios.swift) run with OpenCombine 0.14.0, the peer.
import BenchmarkKit

await runScenarios(BenchmarkRunner(library: "opencombine"))
