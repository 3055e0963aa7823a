/// The two-call `i2d_*` convention in one place: ask for the length with a NULL output, then
/// encode into a buffer of that size. `encode` receives the cursor (NULL on the first call).
func derEncoded(_ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> [UInt8] {
    let length = encode(nil)
    guard length > 0 else { return [] }
    var bytes = [UInt8](repeating: 0, count: Int(length))
    let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
        var cursor = buffer.baseAddress
        return encode(&cursor)
    }
    return written == length ? bytes : []
}
