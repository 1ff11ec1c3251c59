// A test-only stand-in for Apple's CoreGraphics: the declarations `welkin export-code` uses, with
// Apple's signatures, so that exported code type-checks on Linux (CodeExportTests). Bodies do
// nothing; only the signatures matter. One declaration per API, each with its documentation page.
//
// CGFloat, CGPoint, CGSize and CGRect come from swift-corelibs-foundation on Linux, with Apple's
// signatures (https://developer.apple.com/documentation/corefoundation/cgfloat,
// …/cgpoint, …/cgsize, …/cgrect); they are re-exported from here as CoreGraphics does on Apple's
// platforms.

@_exported import Foundation

/// https://developer.apple.com/documentation/corefoundation/cfstring
public final class CFString {}

/// https://developer.apple.com/documentation/coregraphics/cgcolor
open class CGColor {
    /// https://developer.apple.com/documentation/coregraphics/cgcolor/init(srgbred:green:blue:alpha:)
    public init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {}
    /// https://developer.apple.com/documentation/coregraphics/cgcolor/init(colorspace:components:)
    public init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {}
}

/// https://developer.apple.com/documentation/coregraphics/cgimage
open class CGImage {
    /// https://developer.apple.com/documentation/coregraphics/cgimage/width
    public var width: Int { 0 }
    /// https://developer.apple.com/documentation/coregraphics/cgimage/height
    public var height: Int { 0 }
}

/// https://developer.apple.com/documentation/coregraphics/cgcolorspace
open class CGColorSpace {
    /// https://developer.apple.com/documentation/coregraphics/cgcolorspace/init(name:)
    public init?(name: CFString) {}
    /// https://developer.apple.com/documentation/coregraphics/cgcolorspace/srgb
    public class var sRGB: CFString { CFString() }
    /// https://developer.apple.com/documentation/coregraphics/cgcolorspace/displayp3
    public class var displayP3: CFString { CFString() }
    /// https://developer.apple.com/documentation/coregraphics/cgcolorspace/extendeddisplayp3
    public class var extendedDisplayP3: CFString { CFString() }
}

/// https://developer.apple.com/documentation/coregraphics/cgimagealphainfo
public enum CGImageAlphaInfo: UInt32, Sendable {
    /// https://developer.apple.com/documentation/coregraphics/cgimagealphainfo/premultipliedlast
    case premultipliedLast = 1
}

/// https://developer.apple.com/documentation/coregraphics/cgcontext
open class CGContext {
    /// https://developer.apple.com/documentation/coregraphics/cgcontext/init(data:width:height:bitspercomponent:bytesperrow:space:bitmapinfo:)
    public init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int, bytesPerRow: Int,
                 space: CGColorSpace, bitmapInfo: UInt32) {}
    /// https://developer.apple.com/documentation/coregraphics/cgcontext/makeimage()
    public func makeImage() -> CGImage? { nil }
}
