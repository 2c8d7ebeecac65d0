// Shows async/await interop: iterating a publisher with `values`, and a Future made from an async function.
// Run: swift run async-interop
import Streams

func fetchGreeting(for name: String) async throws -> String {
    await Task.yield()  // stands in for real async work
    return "hello, \(name)"
}

print("for await over a publisher's values:")
for await square in (1...4).publisher.map({ $0 * $0 }).values {
    print("  \(square)")
}

print("a Future running an async throwing function, consumed with for try await:")
let greeting = Future { try await fetchGreeting(for: "Streams") }
for try await text in greeting.values {
    print("  \(text)")
}
print("done")
