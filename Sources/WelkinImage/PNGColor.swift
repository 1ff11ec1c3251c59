// What colour space a PNG is in: the chunks Welkin writes (cICP, iCCP or sRGB) and reads back.
//
// Every PNG Welkin writes carries a cICP chunk (PNG third edition: ITU-T H.273 primaries,
// transfer, matrix, range) right after IHDR: (1, 13, 0, 1) for sRGB, (12, 13, 0, 1) for Display
// P3. Display P3 PNGs also carry an ICC profile in iCCP, made with Little CMS (D65 white, the
// DCI-P3 primaries, the sRGB tone curve as ICC parametric curve type 4, description
// "Display P3"), for readers that predate cICP; sRGB PNGs carry the `sRGB` chunk instead (one
// byte, rendering intent perceptual), which every reader knows, rather than a 3 KB profile.

import CLittleCMS
import CZlib
import Foundation
import WelkinCore

extension OutputColorSpace {
    /// The space named by a PNG's cICP values; nil for any other primaries or a transfer other than sRGB's.
    public init?(cicp primaries: UInt8, transfer: UInt8) {
        guard transfer == 13 else { return nil }
        switch primaries {
        case 1: self = .srgb
        case 12: self = .displayP3
        default: return nil
        }
    }
}

public enum PNGColor {
    /// The ICC profile (ICC v4, from Little CMS) a PNG in `space` carries in iCCP.
    public static func iccProfile(_ space: OutputColorSpace) -> [UInt8] {
        space == .srgb ? srgbProfile : displayP3Profile
    }

    static let displayP3Profile = makeProfile(Primaries.displayP3, description: OutputColorSpace.displayP3.displayName)
    static let srgbProfile = makeProfile(Primaries.srgb, description: OutputColorSpace.srgb.displayName)

    /// An RGB display profile: `primaries`, their white, and the sRGB tone curve on each channel.
    static func makeProfile(_ primaries: Primaries, description: String) -> [UInt8] {
        func xyY(_ c: SIMD2<Double>) -> cmsCIExyY { cmsCIExyY(x: c.x, y: c.y, Y: 1) }
        var white = xyY(primaries.white)
        var triple = cmsCIExyYTRIPLE(Red: xyY(primaries.red), Green: xyY(primaries.green), Blue: xyY(primaries.blue))
        // ICC parametric type 4: Y = (aX + b)^g for X ≥ d, Y = cX below: the sRGB curve.
        let parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        guard let curve = cmsBuildParametricToneCurve(nil, 4, parameters) else { preconditionFailure("Little CMS could not build the sRGB curve") }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let profile = cmsCreateRGBProfile(&white, &triple, &curves) else { preconditionFailure("Little CMS could not make a profile") }
        defer { cmsCloseProfile(profile) }
        for (signature, text) in [(cmsSigProfileDescriptionTag, description), (cmsSigCopyrightTag, "No copyright, use freely")] {
            guard let mlu = cmsMLUalloc(nil, 1) else { preconditionFailure("Little CMS could not allocate a text tag") }
            defer { cmsMLUfree(mlu) }
            _ = cmsMLUsetASCII(mlu, "en", "US", text)
            _ = cmsWriteTag(profile, signature, UnsafeRawPointer(mlu))
        }
        var size: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else { preconditionFailure("Little CMS could not measure a profile") }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard bytes.withUnsafeMutableBytes({ cmsSaveProfileToMem(profile, $0.baseAddress, &size) }) != 0 else {
            preconditionFailure("Little CMS could not write a profile")
        }
        return bytes
    }

    /// An ICC profile's description (its `desc` tag, English), through Little CMS; nil when the
    /// bytes are not a profile it can open.
    public static func profileDescription(_ icc: [UInt8]) -> String? {
        guard let profile = icc.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) else { return nil }
        defer { cmsCloseProfile(profile) }
        var buffer = [CChar](repeating: 0, count: 256)
        let n = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", &buffer, cmsUInt32Number(buffer.count))
        guard n > 0 else { return nil }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: chunks

    /// One PNG chunk: length, type, data, CRC-32 of type and data.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        var out = bigEndian(UInt32(data.count)) + typeBytes + data
        let crc = (typeBytes + data).withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        out += bigEndian(UInt32(crc))
        return out
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    /// The colour chunks for `space`, in the order they go after IHDR: cICP, then iCCP (Display
    /// P3) or sRGB.
    static func colorChunks(_ space: OutputColorSpace) -> [UInt8] {
        let c = space.cicp
        var out = chunk("cICP", [c.primaries, c.transfer, c.matrix, c.fullRange])
        if space == .srgb {
            out += chunk("sRGB", [0])
        } else {
            // Profile name (Latin-1, 1…79 bytes), a zero, compression method 0, the zlib stream.
            out += chunk("iCCP", Array(space.displayName.utf8) + [0, 0] + (try! deflate(iccProfile(space))))
        }
        return out
    }

    /// The chunks of a PNG file in order (type, data); nil when it is not a PNG. CRCs are not checked.
    public static func chunks(_ bytes: [UInt8]) -> [(type: String, data: [UInt8])]? {
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { return nil }
        var out: [(String, [UInt8])] = []
        var i = 8
        while i + 12 <= bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length <= bytes.count - i - 12 else { return nil }
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            out.append((type, Array(bytes[(i + 8)..<(i + 8 + length)])))
            i += 12 + length
            if type == "IEND" { break }
        }
        return out
    }

    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// `bytes` (a PNG with IHDR first, as libpng writes) with `space`'s colour chunks after IHDR
    /// and any sRGB, gAMA, cHRM or iCCP chunk libpng wrote removed.
    static func tagging(_ bytes: [UInt8], _ space: OutputColorSpace) -> [UInt8] {
        guard let chunks = chunks(bytes), chunks.first?.type == "IHDR" else { return bytes }
        var out = signature + chunk("IHDR", chunks[0].data) + colorChunks(space)
        for c in chunks.dropFirst() where !["sRGB", "gAMA", "cHRM", "iCCP", "cICP"].contains(c.type) {
            out += chunk(c.type, c.data)
        }
        return out
    }

    /// The colour space a PNG says it is in: its cICP chunk, else its iCCP profile's description
    /// ("Display P3" or "sRGB" in it), else its sRGB chunk; an untagged PNG is sRGB (as browsers
    /// and the PNG specification take it). Throws a sentence for a space Welkin does not know.
    public static func colorSpace(ofPNG bytes: [UInt8]) throws -> OutputColorSpace {
        guard let chunks = chunks(bytes) else { throw PNGColorError(message: "not a PNG") }
        if let c = chunks.first(where: { $0.type == "cICP" }), c.data.count == 4 {
            guard let space = OutputColorSpace(cicp: c.data[0], transfer: c.data[1]) else {
                throw PNGColorError(message: "its cICP chunk says primaries \(c.data[0]), transfer \(c.data[1]); Welkin knows sRGB (1, 13) and Display P3 (12, 13)")
            }
            return space
        }
        if let c = chunks.first(where: { $0.type == "iCCP" }), let zero = c.data.firstIndex(of: 0), zero + 2 <= c.data.count {
            let profile = try inflate(Array(c.data[(zero + 2)...]))
            let description = profileDescription(profile) ?? ""
            if description.contains("Display P3") { return .displayP3 }
            if description.contains("sRGB") { return .srgb }
            throw PNGColorError(message: "its ICC profile \"\(description)\" is neither sRGB nor Display P3")
        }
        return .srgb
    }

    // MARK: zlib

    public static func deflate(_ data: [UInt8], level: Int32 = 9) throws -> [UInt8] {
        var size = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { o in
            data.withUnsafeBufferPointer { compress2(o.baseAddress, &size, $0.baseAddress, uLong($0.count), level) }
        }
        guard status == Z_OK else { throw PNGColorError(message: "zlib could not compress (\(status))") }
        return Array(out.prefix(Int(size)))
    }

    /// Inflates a zlib stream of at most 16 MiB (an ICC profile is a few KB).
    static func inflate(_ data: [UInt8]) throws -> [UInt8] {
        var capacity = max(4096, data.count * 4)
        while capacity <= 16 << 20 {
            var size = uLong(capacity)
            var out = [UInt8](repeating: 0, count: capacity)
            let status = out.withUnsafeMutableBufferPointer { o in
                data.withUnsafeBufferPointer { uncompress(o.baseAddress, &size, $0.baseAddress, uLong($0.count)) }
            }
            if status == Z_OK { return Array(out.prefix(Int(size))) }
            guard status == Z_BUF_ERROR else { throw PNGColorError(message: "its iCCP profile is not a valid zlib stream") }
            capacity *= 4
        }
        throw PNGColorError(message: "its iCCP profile is larger than 16 MiB")
    }
}

/// Why a PNG's colour space cannot be read, as a sentence.
public struct PNGColorError: UserFacingError, Sendable {
    public var message: String
    public var description: String { message }
}
