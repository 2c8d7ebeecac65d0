import Foundation
import Streams

/// `JSONEncoder` encodes to `Data` for `encode(encoder:)`.
extension JSONEncoder: TopLevelEncoder {}

/// `JSONDecoder` decodes `Data` for `decode(type:decoder:)`.
extension JSONDecoder: TopLevelDecoder {}

/// `PropertyListEncoder` encodes to `Data` for `encode(encoder:)`.
extension PropertyListEncoder: TopLevelEncoder {}

/// `PropertyListDecoder` decodes `Data` for `decode(type:decoder:)`.
extension PropertyListDecoder: TopLevelDecoder {}
