import Dispatch
import Synchronization

/// Hands bytes to a second thread that writes them to `downstream`, so that producing them (reading
/// files, hashing, tar framing) and consuming them (deflate, writing the output) overlap, as
/// `tar | gzip` do in two processes.
///
/// Bytes are passed on in chunks through a queue of bounded depth. An error of the downstream is
/// thrown from the next `write` or from `finish`; the downstream is handed back by `finish` and
/// must not be touched before.
public final class PipelinedSink<Downstream: ByteSink>: ByteSink {
    private let channel: PipelineChannel
    private let box: DownstreamBox
    private let chunkSize: Int
    private var buffer: [UInt8] = []
    private var finished = false

    /// Starts the consuming thread; `depth` chunks of `chunkSize` bytes may wait in the queue.
    public init(downstream: Downstream, chunkSize: Int = 1 << 18, depth: Int = 4) {
        self.chunkSize = chunkSize
        let box = DownstreamBox(downstream)
        self.box = box
        channel = PipelineChannel(depth: depth) { try box.write($0) }
        buffer.reserveCapacity(chunkSize)
        let channel = self.channel
        DispatchQueue.global(qos: .userInitiated).async { channel.consume() }
    }

    deinit {
        if !finished {
            channel.send(nil)
            channel.done.wait()
        }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        precondition(!finished, "write after finish")
        buffer.append(contentsOf: bytes)
        if buffer.count >= chunkSize { try flush() }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        let chunk = buffer
        buffer = []
        buffer.reserveCapacity(chunkSize)
        channel.send(chunk)
        if let error = channel.failure { throw error }
    }

    /// Passes on the last bytes, waits for the consumer, and returns the downstream.
    public func finish() throws -> Downstream {
        precondition(!finished, "finish called twice")
        defer { finished = true }
        let flushed = Result { try flush() }
        channel.send(nil)
        channel.done.wait()
        if let error = channel.failure { throw error }
        try flushed.get()
        return box.take()
    }

    /// The downstream, used by the consuming thread only until `finish` takes it back.
    private final class DownstreamBox: @unchecked Sendable {
        private var value: Downstream

        init(_ value: Downstream) { self.value = value }

        func write(_ chunk: [UInt8]) throws { try value.write(chunk) }

        func take() -> Downstream { value }
    }
}

/// The queue between the two threads of a `PipelinedSink`; the writing closure runs on the consumer only.
final class PipelineChannel: @unchecked Sendable {
    private let write: ([UInt8]) throws -> Void
    let done = DispatchSemaphore(value: 0)
    private let slots: DispatchSemaphore
    private let items = DispatchSemaphore(value: 0)
    private let queue = Mutex<[[UInt8]?]>([])
    private let error = Mutex<(any Error)?>(nil)

    init(depth: Int, write: @escaping ([UInt8]) throws -> Void) {
        self.write = write
        slots = DispatchSemaphore(value: depth)
    }

    var failure: (any Error)? { error.withLock { $0 } }

    /// Queues a chunk (nil ends the stream), waiting while the queue is full.
    func send(_ chunk: [UInt8]?) {
        slots.wait()
        queue.withLock { $0.append(chunk) }
        items.signal()
    }

    /// The consuming thread: writes chunks until the end, then keeps draining after an error.
    func consume() {
        while true {
            items.wait()
            let chunk = queue.withLock { $0.removeFirst() }
            slots.signal()
            guard let chunk else { break }
            guard failure == nil else { continue }
            do {
                try write(chunk)
            } catch let failure {
                error.withLock { $0 = failure }
            }
        }
        done.signal()
    }
}
