// A test-only stand-in for Apple's MetalKit: MTKView and its delegate as `welkin export-code
// --package` uses them (WelkinMetal.swift), with Apple's signatures (see CoreGraphics.swift).
// MTKView is a UIView where UIKit can be imported and an NSView otherwise, as Apple's is.

@_exported import Metal
@_exported import QuartzCore
#if canImport(UIKit)
import UIKit
#else
import AppKit
#endif

/// https://developer.apple.com/documentation/metalkit/mtkviewdelegate
public protocol MTKViewDelegate: NSObjectProtocol {
    /// https://developer.apple.com/documentation/metalkit/mtkviewdelegate/mtkview(_:drawablesizewillchange:)
    @MainActor func mtkView(_ view: MTKView, drawableSizeWillChange size: CGSize)
    /// https://developer.apple.com/documentation/metalkit/mtkviewdelegate/draw(in:)
    @MainActor func draw(in view: MTKView)
}

#if canImport(UIKit)
/// MTKView's superclass here: UIView (a stub-only name, so that MTKView is declared once).
public typealias _MTKViewSuperclass = UIView
#else
/// MTKView's superclass here: NSView.
public typealias _MTKViewSuperclass = NSView
#endif

/// https://developer.apple.com/documentation/metalkit/mtkview
@MainActor open class MTKView: _MTKViewSuperclass {
    /// https://developer.apple.com/documentation/metalkit/mtkview/init(frame:device:)
    public init(frame frameRect: CGRect, device: (any MTLDevice)?) { super.init(frame: frameRect) }
    public required init?(coder: NSCoder) { super.init(coder: coder) }
    /// https://developer.apple.com/documentation/metalkit/mtkview/device
    open var device: (any MTLDevice)?
    /// https://developer.apple.com/documentation/metalkit/mtkview/delegate
    weak open var delegate: (any MTKViewDelegate)?
    /// https://developer.apple.com/documentation/metalkit/mtkview/currentdrawable
    open var currentDrawable: (any CAMetalDrawable)? { nil }
    /// https://developer.apple.com/documentation/metalkit/mtkview/colorpixelformat
    open var colorPixelFormat: MTLPixelFormat = .bgra8Unorm
    /// https://developer.apple.com/documentation/metalkit/mtkview/framebufferonly
    open var framebufferOnly: Bool = true
    /// https://developer.apple.com/documentation/metalkit/mtkview/autoresizedrawable
    open var autoResizeDrawable: Bool = true
    /// https://developer.apple.com/documentation/metalkit/mtkview/drawablesize
    open var drawableSize: CGSize = .zero
    /// https://developer.apple.com/documentation/metalkit/mtkview/preferredframespersecond
    open var preferredFramesPerSecond: Int = 60
    /// https://developer.apple.com/documentation/metalkit/mtkview/ispaused
    open var isPaused: Bool = false
}
