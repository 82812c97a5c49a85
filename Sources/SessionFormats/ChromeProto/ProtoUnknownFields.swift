import Foundation
import SwiftProtobuf

extension SwiftProtobuf.Message {
    /// The raw bytes of the fields this version does not know.
    var unknownBytes: [UInt8] { [UInt8](unknownFields.data) }

    /// This message with `bytes` (raw protobuf fields) added as unknown fields, so that they are
    /// written back after the known ones exactly as they were read.
    func addingUnknown(_ bytes: [UInt8]) -> Self {
        guard !bytes.isEmpty, let known: [UInt8] = try? serializedBytes(),
            let merged = try? Self(serializedBytes: known + bytes)
        else { return self }
        return merged
    }
}
