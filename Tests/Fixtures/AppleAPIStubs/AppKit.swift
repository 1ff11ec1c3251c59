// A test-only stand-in for Apple's AppKit: the declarations `welkin export-code` uses, with Apple's
// signatures (see CoreGraphics.swift and UIKit.swift). NSRect is swift-corelibs-foundation's, as
// Apple's: https://developer.apple.com/documentation/foundation/nsrect

@_exported import QuartzCore

/// https://developer.apple.com/documentation/appkit/nsresponder
@MainActor open class NSResponder: NSObject {}

/// https://developer.apple.com/documentation/appkit/nsview
@MainActor open class NSView: NSResponder {
    /// https://developer.apple.com/documentation/appkit/nsview/init(frame:)
    public init(frame frameRect: NSRect) {}
    /// https://developer.apple.com/documentation/appkit/nsview/init(coder:)
    public required init?(coder: NSCoder) {}
    /// https://developer.apple.com/documentation/appkit/nsview/wantslayer
    open var wantsLayer: Bool = false
    /// https://developer.apple.com/documentation/appkit/nsview/layer
    open var layer: CALayer?
    /// https://developer.apple.com/documentation/appkit/nsview/bounds
    open var bounds: NSRect = .zero
    /// https://developer.apple.com/documentation/appkit/nsview/layout()
    open func layout() {}
}

/// https://developer.apple.com/documentation/appkit/nsgraphicscontext
open class NSGraphicsContext: NSObject {}

/// https://developer.apple.com/documentation/appkit/nsimagerep
open class NSImageRep: NSObject {
    /// https://developer.apple.com/documentation/appkit/nsimagerep/hintkey
    public struct HintKey: Hashable, RawRepresentable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }
}

extension Bundle {
    /// https://developer.apple.com/documentation/foundation/bundle/image(forresource:)
    public func image(forResource name: NSImage.Name) -> NSImage? { nil }
}

/// https://developer.apple.com/documentation/appkit/nsimage
open class NSImage: NSObject {
    /// https://developer.apple.com/documentation/appkit/nsimage/name
    public typealias Name = String
    /// https://developer.apple.com/documentation/appkit/nsimage/init(named:)
    public init?(named name: NSImage.Name) {}
    /// https://developer.apple.com/documentation/appkit/nsimage/cgimage(forproposedrect:context:hints:)
    open func cgImage(forProposedRect proposedDestRect: UnsafeMutablePointer<NSRect>?, context referenceContext: NSGraphicsContext?,
                      hints: [NSImageRep.HintKey: Any]?) -> CGImage? { nil }
}
