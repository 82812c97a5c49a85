import Archive
import Foundation
import Testing

/// SHA-256 against the NIST vectors and sha256sum.
@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        )
    ])
    func nistVectors(message: String, digest: String) {
        #expect(SHA256.hex(SHA256.hash(Array(message.utf8))) == digest)
        var streamed = SHA256()
        streamed.update(Array(message.utf8))
        #expect(SHA256.hex(streamed.finalize()) == digest)
    }

    @Test func millionAs() {
        var hasher = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        #expect(SHA256.hex(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func streamingInOddChunksEqualsOneShot() {
        let data = Tools.bytes(count: 10_007, seed: 3)
        var hasher = SHA256()
        var offset = 0
        var step = 1
        while offset < data.count {
            let end = min(offset + step, data.count)
            hasher.update(Array(data[offset..<end]))
            offset = end
            step = step * 3 % 131 + 1
        }
        #expect(hasher.finalize() == SHA256.hash(data))
    }

    @Test(arguments: [55, 56, 63, 64, 65, 119, 120, 100_000])
    func matchesSha256sum(length: Int) throws {
        let data = Tools.bytes(count: length, seed: UInt64(length))
        let result = try Tools.run("sha256sum", [], stdin: Data(data))
        #expect(result.status == 0)
        let expected = String(decoding: result.stdout, as: UTF8.self).split(separator: " ").first.map(String.init)
        #expect(SHA256.hex(SHA256.hash(data)) == expected)
    }
}
