// A test-only stand-in for Apple's UIKit: the declarations `welkin export-code` uses, with Apple's
// signatures (see CoreGraphics.swift). Its presence decides `#if canImport(UIKit)` in exported
// code: the tests type-check every file once with it (the iOS branch) and once without it (macOS).

@_exported import QuartzCore

/// https://developer.apple.com/documentation/uikit/uiresponder
@MainActor open class UIResponder: NSObject {}

/// https://developer.apple.com/documentation/uikit/uiview
@MainActor open class UIView: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiview/init(frame:)
    public init(frame: CGRect) {}
    /// https://developer.apple.com/documentation/uikit/uiview/init(coder:)
    public required init?(coder: NSCoder) {}
    /// https://developer.apple.com/documentation/uikit/uiview/layer
    open var layer: CALayer { CALayer() }
    /// https://developer.apple.com/documentation/uikit/uiview/bounds
    open var bounds: CGRect = .zero
    /// https://developer.apple.com/documentation/uikit/uiview/isopaque
    open var isOpaque: Bool = true
    /// https://developer.apple.com/documentation/uikit/uiview/backgroundcolor
    @NSCopying open var backgroundColor: UIColor?
    /// https://developer.apple.com/documentation/uikit/uiview/isuserinteractionenabled
    open var isUserInteractionEnabled: Bool = true
    /// https://developer.apple.com/documentation/uikit/uiview/layoutsubviews()
    open func layoutSubviews() {}
}

/// https://developer.apple.com/documentation/uikit/uiimage
open class UIImage: NSObject {
    /// https://developer.apple.com/documentation/uikit/uiimage/init(named:)
    public init?(named name: String) {}
    /// https://developer.apple.com/documentation/uikit/uiimage/init(named:in:with:)
    public init?(named name: String, in bundle: Bundle?, with configuration: UIImage.Configuration?) {}
    /// https://developer.apple.com/documentation/uikit/uiimage/configuration
    open class Configuration: NSObject {}
    /// https://developer.apple.com/documentation/uikit/uiimage/cgimage
    open var cgImage: CGImage? { nil }
}

/// https://developer.apple.com/documentation/uikit/uicolor
open class UIColor: NSObject, NSCopying {
    /// https://developer.apple.com/documentation/uikit/uicolor/clear
    open class var clear: UIColor { UIColor() }
    public func copy(with zone: NSZone? = nil) -> Any { self }
}
