/// libFuzzer's entry for programs that bring their own `main` (LLVM 11 and later).
@_silgen_name("LLVMFuzzerRunDriver")
func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Runs libFuzzer with the command line and `callback` as the fuzz target.
///
/// SwiftPM links every executable with `--defsym main=<Target>_main`, so each target defines
/// `<Target>_main` and calls this; libFuzzer's own `main` is then never linked in.
public func runFuzzer(
    _ argc: Int32,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32 {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return llvmFuzzerRunDriver(&count, &arguments, callback)
}
