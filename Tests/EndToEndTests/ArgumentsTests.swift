// Typed options (Sources/welkin/Option.swift): parsing, conversion, defaults, the usage errors that
// name the option, and the rule that a command reads only the options it declares.

import Foundation
import XCTest
import WelkinTestSupport
@testable import welkin

final class ArgumentsTests: XCTestCase {
    enum Mode: String, CaseIterable, Sendable { case fast, careful, exact }

    static let count = Option<Int>("--count", value: "N", help: "A whole number (default 3).", default: 3,
                                   convert: OptionConversion.wholeNumber("a whole number in 1…9", where: { (1...9).contains($0) }))
    static let mode = Option<Mode?>("--mode", value: "MODE", help: "fast, careful or exact.", convert: OptionConversion.choice(Mode.self))
    static let loud = Flag("--loud", help: "Say it loudly.")
    static let undeclared = Flag("--quiet", help: "Not in the command's list.")

    static let command = Command(name: "try", summary: "A command for the tests.", usage: "welkin try [OPTIONS] [FILE]",
                                 options: [Options.time, Options.size, Options.output, count, mode, loud, Options.Values.times],
                                 run: { _ in 0 })

    func parse(_ arguments: [String]) throws -> Arguments { try Arguments.parse(arguments, for: Self.command) }

    /// The message of the usage error `body` throws.
    func usageMessage<T>(_ body: () throws -> T) -> String {
        do { _ = try body() } catch let e as UsageError { return e.message } catch { return "not a usage error: \(error)" }
        return "no error"
    }

    func testValuesConvertToTheirTypes() throws {
        let args = try parse(["--time", "1.5", "--size=640x360", "-o", "out.png", "--count", "7", "--mode", "careful", "--loud", "scene.json",
                              "--times", "0, 2.5,4"])
        XCTAssertEqual(try args[Options.time], 1.5)
        XCTAssertEqual(try args[Options.size], SIMD2(640, 360))
        XCTAssertEqual(try args[Options.output], "out.png")
        XCTAssertEqual(try args[Self.count], 7)
        XCTAssertEqual(try args[Self.mode], .careful)
        XCTAssertTrue(try args[Self.loud])
        XCTAssertEqual(try args[Options.Values.times], [0, 2.5, 4])
        XCTAssertEqual(args.positionals, ["scene.json"])
        XCTAssertEqual(try args.text(Options.time), "1.5")
    }

    func testAbsentOptionsReadTheirDefaults() throws {
        let args = try parse([])
        XCTAssertEqual(try args[Options.time], 0)
        XCTAssertNil(try args[Options.size])
        XCTAssertNil(try args[Options.output])
        XCTAssertEqual(try args[Self.count], 3)
        XCTAssertNil(try args[Self.mode])
        XCTAssertFalse(try args[Self.loud])
        XCTAssertFalse(try args.contains(Self.count))
    }

    func testAConversionErrorNamesTheOptionAndTheText() throws {
        XCTAssertEqual(usageMessage { try parse(["--time", "abc"])[Options.time] }, "--time expects a number of seconds, got 'abc'")
        XCTAssertEqual(usageMessage { try parse(["--time", "-1"])[Options.time] }, "--time expects a time in 0…1000000000 s, got '-1'")
        XCTAssertEqual(usageMessage { try parse(["--count", "2.5"])[Self.count] }, "--count expects a whole number in 1…9, got '2.5'")
        XCTAssertEqual(usageMessage { try parse(["--count=10"])[Self.count] }, "--count expects a whole number in 1…9, got '10'")
        XCTAssertEqual(usageMessage { try parse(["--mode", "slow"])[Self.mode] }, "--mode expects fast, careful or exact, got 'slow'")
        XCTAssertEqual(usageMessage { try parse(["--size", "0x5"])[Options.size] },
                       "--size expects WIDTHxHEIGHT with each side in 1…16384, got '0x5'")
        // A list quotes the item at fault.
        XCTAssertEqual(usageMessage { try parse(["--times", "1,x,2"])[Options.Values.times] },
                       "--times expects seconds in 0…1000000000, got 'x'")
        // The error carries the command, for its usage line.
        do { _ = try parse(["--count", "0"])[Self.count]; XCTFail("no error") } catch let e as UsageError {
            XCTAssertEqual(e.command?.name, "try")
        }
    }

    func testParsingErrors() {
        XCTAssertEqual(usageMessage { try parse(["--loud=yes"]) }, "option '--loud' takes no value")
        XCTAssertEqual(usageMessage { try parse(["--count"]) }, "option '--count' needs a value N")
        XCTAssertEqual(usageMessage { try parse(["--count", "1", "--count", "2"]) }, "option '--count' given twice")
        XCTAssertEqual(usageMessage { try parse(["--cuont", "1"]) }, "unknown option '--cuont'; did you mean '--count'?")
    }

    /// Reading an option the command does not list is a bug, reported as one (not a silent nil).
    func testReadingAnUndeclaredOptionFails() throws {
        let args = try parse(["--loud"])
        XCTAssertThrowsError(try args[Self.undeclared]) { error in
            XCTAssertEqual((error as? Failure)?.message, "welkin try: internal error: reads --quiet, which the command does not declare")
        }
        XCTAssertThrowsError(try args[Options.shaders])
        XCTAssertThrowsError(try args.contains(Options.Compare.threshold))
    }

    /// A variant (`with(value:help:)`) is the same option: read through the shared declaration.
    func testAVariantReadsAsTheSharedOption() throws {
        let variant = Options.size.with(help: "The frame's size.")
        XCTAssertEqual(variant.spec.value, "WxH")
        XCTAssertEqual(variant.spec.help, "The frame's size.")
        let soak = try Arguments.parse(["a.json", "--size", "8x4"], for: Commands.soak)
        XCTAssertEqual(try soak[Options.Soak.size], SIMD2(8, 4))
        XCTAssertEqual(try soak[Options.size], SIMD2(8, 4))
    }

    /// Every command's options are distinct, so help and the parser agree on what each name means.
    func testEveryCommandDeclaresEachOptionOnce() {
        for command in Commands.all {
            let names = command.options.map(\.name) + command.options.compactMap(\.short)
            XCTAssertEqual(names.count, Set(names).count, "\(command.name) lists an option twice: \(names)")
        }
    }

    /// Options are read through their declarations only: no `args.value("--name")` or
    /// `args.flag("--name")` lookups by string are left for a typo to turn into a silent nil.
    func testNoOptionIsReadByItsName() throws {
        let sources = Repository.root.appendingPathComponent("Sources/welkin")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        XCTAssertFalse(files.isEmpty)
        let lookup = try NSRegularExpression(pattern: #"\.(value|flag)\(\s*"-"#)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let matches = lookup.matches(in: text, range: NSRange(text.startIndex..., in: text))
            XCTAssertTrue(matches.isEmpty, "\(file) reads an option by its name: \(matches.map { (text as NSString).substring(with: $0.range) })")
        }
    }
}
