import Foundation
import SessionFormats

/// Reading standard input whole.
enum StandardInput {
    static func readAll() throws(FormatError) -> [UInt8] {
        [UInt8](FileHandle.standardInput.readDataToEndOfFile())
    }
}
