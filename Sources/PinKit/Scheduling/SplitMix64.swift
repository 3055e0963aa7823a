/// A deterministic random number generator (SplitMix64): the same seed gives the same jitter,
/// so schedules are reproducible in tests and in the fleet simulator.
///
/// > Warning: Not for secrets. It spreads retries and refreshes in time; nothing more.
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// Seeded from the system generator: different on every device.
    public static func random() -> SplitMix64 {
        var system = SystemRandomNumberGenerator()
        return SplitMix64(seed: system.next())
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
