// bench-streams: the issue 8 scenarios (Scenarios.swift) run with Streams.
import BenchmarkKit

await runScenarios(BenchmarkRunner(library: "streams"))
