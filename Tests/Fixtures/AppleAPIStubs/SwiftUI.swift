// A test-only stand-in for Apple's SwiftUI: the declarations `welkin export-code` uses, with
// Apple's signatures as of the iOS 18 / macOS 15 SDK (see CoreGraphics.swift). Views whose body is
// `Never` are SwiftUI's primitive views; modifiers return `some View` as Apple's do. The view
// representables follow UIKit's presence, as SwiftUI's do: UIViewRepresentable where UIKit can be
// imported, NSViewRepresentable otherwise (AppKit).

@_exported import Foundation
import CoreGraphics
#if canImport(UIKit)
import UIKit
#else
import AppKit
#endif

// MARK: Views and builders

/// https://developer.apple.com/documentation/swiftui/view
@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// https://developer.apple.com/documentation/swiftui/never (Never's View conformance)
extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/viewbuilder
@resultBuilder public struct ViewBuilder {
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildexpression(_:)
    public static func buildExpression<Content>(_ content: Content) -> Content where Content: View { content }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock()
    public static func buildBlock() -> EmptyView { EmptyView() }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)
    public static func buildBlock<Content>(_ content: Content) -> Content where Content: View { content }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)-4mm5d (parameter packs, Swift 5.9)
    public static func buildBlock<each Content>(_ content: repeat each Content) -> TupleView<(repeat each Content)> where repeat each Content: View {
        TupleView((repeat each content))
    }
}

/// https://developer.apple.com/documentation/swiftui/emptyview
@frozen public struct EmptyView: View {
    public init() {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/tupleview
@frozen public struct TupleView<T>: View {
    public var value: T
    public init(_ value: T) { self.value = value }
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/alignment
@frozen public struct Alignment: Equatable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/alignment/center
    public static let center = Alignment()
    /// https://developer.apple.com/documentation/swiftui/alignment/topleading
    public static let topLeading = Alignment()
}

/// https://developer.apple.com/documentation/swiftui/horizontalalignment
@frozen public struct HorizontalAlignment: Equatable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/horizontalalignment/leading
    public static let leading = HorizontalAlignment()
    /// https://developer.apple.com/documentation/swiftui/horizontalalignment/center
    public static let center = HorizontalAlignment()
    /// https://developer.apple.com/documentation/swiftui/horizontalalignment/trailing
    public static let trailing = HorizontalAlignment()
}

/// https://developer.apple.com/documentation/swiftui/verticalalignment
@frozen public struct VerticalAlignment: Equatable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/verticalalignment/top
    public static let top = VerticalAlignment()
    /// https://developer.apple.com/documentation/swiftui/verticalalignment/center
    public static let center = VerticalAlignment()
    /// https://developer.apple.com/documentation/swiftui/verticalalignment/bottom
    public static let bottom = VerticalAlignment()
    /// https://developer.apple.com/documentation/swiftui/verticalalignment/firsttextbaseline
    public static let firstTextBaseline = VerticalAlignment()
}

/// https://developer.apple.com/documentation/swiftui/viewdimensions
public struct ViewDimensions {
    /// https://developer.apple.com/documentation/swiftui/viewdimensions/subscript(_:)-1o3sg
    public subscript(guide: HorizontalAlignment) -> CGFloat { 0 }
    /// https://developer.apple.com/documentation/swiftui/viewdimensions/subscript(_:)-5sg2j
    public subscript(guide: VerticalAlignment) -> CGFloat { 0 }
}

/// https://developer.apple.com/documentation/swiftui/geometryproxy
public struct GeometryProxy {
    /// https://developer.apple.com/documentation/swiftui/geometryproxy/size
    public var size: CGSize { .zero }
}

/// https://developer.apple.com/documentation/swiftui/geometryreader
@frozen public struct GeometryReader<Content>: View where Content: View {
    /// https://developer.apple.com/documentation/swiftui/geometryreader/init(content:)
    public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/rectangle
@frozen public struct Rectangle: View {
    /// https://developer.apple.com/documentation/swiftui/rectangle/init()
    @inlinable public init() {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/blendmode
public enum BlendMode: Sendable {
    case normal, destinationOut
    /// https://developer.apple.com/documentation/swiftui/blendmode/pluslighter
    case plusLighter
}

// MARK: Text

/// https://developer.apple.com/documentation/swiftui/text
@frozen public struct Text: View {
    /// https://developer.apple.com/documentation/swiftui/text/init(verbatim:)
    public init(verbatim content: String) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/textalignment
public enum TextAlignment: Hashable, Sendable {
    case leading, center, trailing
}

/// https://developer.apple.com/documentation/swiftui/font
@frozen public struct Font: Hashable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/font/weight
    @frozen public struct Weight: Hashable, Sendable {
        public static let ultraLight = Weight(), thin = Weight(), light = Weight(), regular = Weight(), medium = Weight()
        public static let semibold = Weight(), bold = Weight(), heavy = Weight(), black = Weight()
    }
    /// https://developer.apple.com/documentation/swiftui/font/design
    public enum Design: Hashable, Sendable { case `default`, serif, rounded, monospaced }
    /// https://developer.apple.com/documentation/swiftui/font/system(size:weight:design:)
    public static func system(size: CGFloat, weight: Font.Weight? = nil, design: Font.Design? = nil) -> Font { Font() }
    /// https://developer.apple.com/documentation/swiftui/font/custom(_:fixedsize:)
    public static func custom(_ name: String, fixedSize: CGFloat) -> Font { Font() }
    /// https://developer.apple.com/documentation/swiftui/font/weight(_:)
    public func weight(_ weight: Font.Weight) -> Font { self }
}

/// https://developer.apple.com/documentation/swiftui/shapestyle
public protocol ShapeStyle: Sendable {}

extension Color: ShapeStyle {
    /// https://developer.apple.com/documentation/swiftui/color/opacity(_:)
    public func opacity(_ opacity: Double) -> Color { self }
}

// MARK: Animations

/// https://developer.apple.com/documentation/swiftui/animation
@frozen public struct Animation: Equatable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/animation/linear(duration:)
    public static func linear(duration: TimeInterval) -> Animation { Animation() }
    /// https://developer.apple.com/documentation/swiftui/animation/easein(duration:)
    public static func easeIn(duration: TimeInterval) -> Animation { Animation() }
    /// https://developer.apple.com/documentation/swiftui/animation/easeout(duration:)
    public static func easeOut(duration: TimeInterval) -> Animation { Animation() }
    /// https://developer.apple.com/documentation/swiftui/animation/easeinout(duration:)
    public static func easeInOut(duration: TimeInterval) -> Animation { Animation() }
    /// https://developer.apple.com/documentation/swiftui/animation/timingcurve(_:_:_:_:duration:)
    public static func timingCurve(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double, duration: TimeInterval = 0.35) -> Animation { Animation() }
    /// https://developer.apple.com/documentation/swiftui/animation/spring(duration:bounce:blendduration:)
    @available(iOS 17.0, macOS 14.0, *)
    public static func spring(duration: TimeInterval = 0.5, bounce: Double = 0.0, blendDuration: Double = 0) -> Animation { Animation() }
    /// https://developer.apple.com/documentation/swiftui/animation/spring(response:dampingfraction:blendduration:)
    public static func spring(response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: TimeInterval = 0) -> Animation { Animation() }
    /// https://developer.apple.com/documentation/swiftui/animation/interpolatingspring(mass:stiffness:damping:initialvelocity:)
    public static func interpolatingSpring(mass: Double = 1.0, stiffness: Double, damping: Double, initialVelocity: Double = 0.0) -> Animation { Animation() }
    /// https://developer.apple.com/documentation/swiftui/animation/interpolatingspring(duration:bounce:initialvelocity:)
    @available(iOS 17.0, macOS 14.0, *)
    public static func interpolatingSpring(duration: TimeInterval = 0.5, bounce: Double = 0.0, initialVelocity: Double = 0.0) -> Animation { Animation() }
    /// https://developer.apple.com/documentation/swiftui/animation/speed(_:)
    public func speed(_ speed: Double) -> Animation { self }
    /// https://developer.apple.com/documentation/swiftui/animation/delay(_:)
    public func delay(_ delay: TimeInterval) -> Animation { self }
    /// https://developer.apple.com/documentation/swiftui/animation/repeatforever(autoreverses:)
    public func repeatForever(autoreverses: Bool = true) -> Animation { self }
    /// https://developer.apple.com/documentation/swiftui/animation/repeatcount(_:autoreverses:)
    public func repeatCount(_ repeatCount: Int, autoreverses: Bool = true) -> Animation { self }
}

/// https://developer.apple.com/documentation/swiftui/withanimation(_:_:)
@MainActor public func withAnimation<Result>(_ animation: Animation? = nil, _ body: () throws -> Result) rethrows -> Result { try body() }

/// https://developer.apple.com/documentation/swiftui/zstack
@frozen public struct ZStack<Content>: View where Content: View {
    /// https://developer.apple.com/documentation/swiftui/zstack/init(alignment:content:)
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/group
@frozen public struct Group<Content> {}

extension Group: View where Content: View {
    /// https://developer.apple.com/documentation/swiftui/group/init(content:)-8jbdr
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/safearearegions
@frozen public struct SafeAreaRegions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/swiftui/safearearegions/all
    public static let all = SafeAreaRegions(rawValue: 3)
}

/// https://developer.apple.com/documentation/swiftui/edge
@frozen public enum Edge: Int8, Sendable {
    case top, leading, bottom, trailing
    /// https://developer.apple.com/documentation/swiftui/edge/set
    @frozen public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        /// https://developer.apple.com/documentation/swiftui/edge/set/all
        public static let all = Edge.Set(rawValue: 15)
    }
}

extension View {
    /// https://developer.apple.com/documentation/swiftui/view/opacity(_:)
    @inlinable nonisolated public func opacity(_ opacity: Double) -> some View { self }

    /// https://developer.apple.com/documentation/swiftui/view/onappear(perform:)
    @inlinable nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/scaleeffect(x:y:anchor:)
    @inlinable nonisolated public func scaleEffect(x: CGFloat = 1.0, y: CGFloat = 1.0, anchor: UnitPoint = .center) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/rotationeffect(_:anchor:)
    @inlinable nonisolated public func rotationEffect(_ angle: Angle, anchor: UnitPoint = .center) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/offset(x:y:)
    @inlinable nonisolated public func offset(x: CGFloat = 0, y: CGFloat = 0) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/shadow(color:radius:x:y:)
    @inlinable nonisolated public func shadow(color: Color = Color(.sRGBLinear, red: 0, green: 0, blue: 0, opacity: 0.33), radius: CGFloat, x: CGFloat = 0, y: CGFloat = 0) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/mask(alignment:_:)
    @available(iOS 15.0, macOS 12.0, *)
    @inlinable nonisolated public func mask<Mask>(alignment: Alignment = .center, @ViewBuilder _ mask: () -> Mask) -> some View where Mask: View { self }
    /// https://developer.apple.com/documentation/swiftui/view/overlay(alignment:content:)
    @available(iOS 15.0, macOS 12.0, *)
    @inlinable nonisolated public func overlay<V>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View where V: View { self }
    /// https://developer.apple.com/documentation/swiftui/view/compositinggroup()
    @inlinable nonisolated public func compositingGroup() -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/blendmode(_:)
    @inlinable nonisolated public func blendMode(_ blendMode: BlendMode) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/frame(width:height:alignment:)
    @inlinable nonisolated public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/alignmentguide(_:computevalue:)-9mdoh
    @inlinable nonisolated public func alignmentGuide(_ g: HorizontalAlignment, computeValue: @escaping (ViewDimensions) -> CGFloat) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/alignmentguide(_:computevalue:)-6y3u2
    @inlinable nonisolated public func alignmentGuide(_ g: VerticalAlignment, computeValue: @escaping (ViewDimensions) -> CGFloat) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/fixedsize()
    @inlinable nonisolated public func fixedSize() -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/font(_:)
    @inlinable nonisolated public func font(_ font: Font?) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/foregroundstyle(_:)
    @available(iOS 15.0, macOS 12.0, *)
    @inlinable nonisolated public func foregroundStyle<S>(_ style: S) -> some View where S: ShapeStyle { self }
    /// https://developer.apple.com/documentation/swiftui/view/multilinetextalignment(_:)
    @inlinable nonisolated public func multilineTextAlignment(_ alignment: TextAlignment) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/linespacing(_:)
    @inlinable nonisolated public func lineSpacing(_ lineSpacing: CGFloat) -> some View { self }

    /// https://developer.apple.com/documentation/swiftui/view/onchange(of:initial:_:)-4psgg
    @available(iOS 17.0, macOS 14.0, *)
    @inlinable nonisolated public func onChange<V>(of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void) -> some View where V: Equatable { self }
    /// https://developer.apple.com/documentation/swiftui/view/onchange(of:initial:_:)-8wgw9
    @available(iOS 17.0, macOS 14.0, *)
    @inlinable nonisolated public func onChange<V>(of value: V, initial: Bool = false, _ action: @escaping () -> Void) -> some View where V: Equatable { self }

    /// https://developer.apple.com/documentation/swiftui/view/ignoressafearea(_:edges:)
    @available(iOS 14.0, macOS 11.0, *)
    @inlinable nonisolated public func ignoresSafeArea(_ regions: SafeAreaRegions = .all, edges: Edge.Set = .all) -> some View { self }
}

/// https://developer.apple.com/documentation/swiftui/dynamicproperty
public protocol DynamicProperty {}

/// https://developer.apple.com/documentation/swiftui/state
@frozen @propertyWrapper public struct State<Value>: DynamicProperty {
    private var value: Value
    /// https://developer.apple.com/documentation/swiftui/state/init(wrappedvalue:)
    public init(wrappedValue value: Value) { self.value = value }
    /// https://developer.apple.com/documentation/swiftui/state/init(initialvalue:)
    public init(initialValue value: Value) { self.value = value }
    /// https://developer.apple.com/documentation/swiftui/state/wrappedvalue
    public var wrappedValue: Value {
        get { value }
        nonmutating set {}
    }
}

// MARK: Colours and gradients

/// https://developer.apple.com/documentation/swiftui/color
@frozen public struct Color: Hashable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/color/rgbcolorspace
    public enum RGBColorSpace: Hashable, Sendable {
        /// https://developer.apple.com/documentation/swiftui/color/rgbcolorspace/srgb
        case sRGB
        /// https://developer.apple.com/documentation/swiftui/color/rgbcolorspace/srgblinear
        case sRGBLinear
        /// https://developer.apple.com/documentation/swiftui/color/rgbcolorspace/displayp3
        case displayP3
    }
    /// https://developer.apple.com/documentation/swiftui/color/init(_:red:green:blue:opacity:)
    public init(_ colorSpace: Color.RGBColorSpace = .sRGB, red: Double, green: Double, blue: Double, opacity: Double = 1) {}
    /// https://developer.apple.com/documentation/swiftui/color/clear
    public static let clear = Color(.sRGB, red: 0, green: 0, blue: 0, opacity: 0)
}

/// https://developer.apple.com/documentation/swiftui/color (Color's View conformance)
extension Color: View {
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/unitpoint
@frozen public struct UnitPoint: Hashable, Sendable {
    public var x: CGFloat
    public var y: CGFloat
    /// https://developer.apple.com/documentation/swiftui/unitpoint/init(x:y:)
    public init(x: CGFloat, y: CGFloat) { self.x = x; self.y = y }
    /// https://developer.apple.com/documentation/swiftui/unitpoint/center
    public static let center = UnitPoint(x: 0.5, y: 0.5)
}

/// https://developer.apple.com/documentation/swiftui/angle
@frozen public struct Angle: Hashable, Sendable {
    public var radians: Double
    public init(radians: Double) { self.radians = radians }
    /// https://developer.apple.com/documentation/swiftui/angle/degrees(_:)
    @inlinable public static func degrees(_ degrees: Double) -> Angle { Angle(radians: degrees * .pi / 180) }
    /// https://developer.apple.com/documentation/swiftui/angle/zero
    public static let zero = Angle(radians: 0)
}

/// https://developer.apple.com/documentation/swiftui/gradient
@frozen public struct Gradient: Hashable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/gradient/stop
    @frozen public struct Stop: Hashable, Sendable {
        public var color: Color
        public var location: CGFloat
        /// https://developer.apple.com/documentation/swiftui/gradient/stop/init(color:location:)
        public init(color: Color, location: CGFloat) { self.color = color; self.location = location }
    }
    /// https://developer.apple.com/documentation/swiftui/gradient/colorspace
    @available(iOS 16.0, macOS 13.0, *)
    public struct ColorSpace: Hashable, Sendable {
        /// https://developer.apple.com/documentation/swiftui/gradient/colorspace/device
        public static let device = ColorSpace()
        /// https://developer.apple.com/documentation/swiftui/gradient/colorspace/perceptual
        public static let perceptual = ColorSpace()
    }
}

/// https://developer.apple.com/documentation/swiftui/lineargradient
@frozen public struct LinearGradient: View {
    /// https://developer.apple.com/documentation/swiftui/lineargradient/init(stops:startpoint:endpoint:)
    nonisolated public init(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/radialgradient
@frozen public struct RadialGradient: View {
    /// https://developer.apple.com/documentation/swiftui/radialgradient/init(stops:center:startradius:endradius:)
    nonisolated public init(stops: [Gradient.Stop], center: UnitPoint, startRadius: CGFloat, endRadius: CGFloat) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/angulargradient
@frozen public struct AngularGradient: View {
    /// https://developer.apple.com/documentation/swiftui/angulargradient/init(stops:center:startangle:endangle:)
    nonisolated public init(stops: [Gradient.Stop], center: UnitPoint, startAngle: Angle = .zero, endAngle: Angle = .zero) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/ellipticalgradient
@available(iOS 15.0, macOS 12.0, *)
@frozen public struct EllipticalGradient: View {
    /// https://developer.apple.com/documentation/swiftui/ellipticalgradient/init(stops:center:startradiusfraction:endradiusfraction:)
    nonisolated public init(stops: [Gradient.Stop], center: UnitPoint = .center, startRadiusFraction: CGFloat = 0, endRadiusFraction: CGFloat = 0.5) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/meshgradient
@available(iOS 18.0, macOS 15.0, *)
@frozen public struct MeshGradient: View {
    /// https://developer.apple.com/documentation/swiftui/meshgradient/bezierpoint
    @frozen public struct BezierPoint: Equatable, Sendable {
        public var position: SIMD2<Float>
        public var leadingControlPoint: SIMD2<Float>
        public var topControlPoint: SIMD2<Float>
        public var trailingControlPoint: SIMD2<Float>
        public var bottomControlPoint: SIMD2<Float>
        /// https://developer.apple.com/documentation/swiftui/meshgradient/bezierpoint/init(position:leadingcontrolpoint:topcontrolpoint:trailingcontrolpoint:bottomcontrolpoint:)
        public init(position: SIMD2<Float>, leadingControlPoint: SIMD2<Float>, topControlPoint: SIMD2<Float>,
                    trailingControlPoint: SIMD2<Float>, bottomControlPoint: SIMD2<Float>) {
            self.position = position; self.leadingControlPoint = leadingControlPoint; self.topControlPoint = topControlPoint
            self.trailingControlPoint = trailingControlPoint; self.bottomControlPoint = bottomControlPoint
        }
    }
    /// https://developer.apple.com/documentation/swiftui/meshgradient/init(width:height:points:colors:background:smoothscolors:colorspace:)
    nonisolated public init(width: Int, height: Int, points: [SIMD2<Float>], colors: [Color], background: Color = .clear,
                            smoothsColors: Bool = true, colorSpace: Gradient.ColorSpace = .device) {}
    /// https://developer.apple.com/documentation/swiftui/meshgradient/init(width:height:bezierpoints:colors:background:smoothscolors:colorspace:)
    nonisolated public init(width: Int, height: Int, bezierPoints: [MeshGradient.BezierPoint], colors: [Color], background: Color = .clear,
                            smoothsColors: Bool = true, colorSpace: Gradient.ColorSpace = .device) {}
    public var body: Never { fatalError() }
}

// MARK: Immediate-mode drawing

/// https://developer.apple.com/documentation/swiftui/image
@frozen public struct Image: Hashable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/image/orientation
    public enum Orientation: UInt8, Hashable, Sendable { case up, upMirrored, down, downMirrored, left, leftMirrored, right, rightMirrored }
    /// https://developer.apple.com/documentation/swiftui/image/templaterenderingmode
    public enum TemplateRenderingMode: Hashable, Sendable { case template, original }
    /// https://developer.apple.com/documentation/swiftui/image/init(decorative:scale:orientation:)
    public init(decorative cgImage: CGImage, scale: CGFloat, orientation: Image.Orientation = .up) {}
    /// https://developer.apple.com/documentation/swiftui/image/init(_:bundle:)
    public init(_ name: String, bundle: Bundle? = nil) {}
    /// https://developer.apple.com/documentation/swiftui/image/renderingmode(_:)
    public func renderingMode(_ renderingMode: Image.TemplateRenderingMode?) -> Image { self }
}

/// https://developer.apple.com/documentation/swiftui/roundedcornerstyle
public enum RoundedCornerStyle: Hashable, Sendable { case circular, continuous }

/// https://developer.apple.com/documentation/swiftui/fillstyle
@frozen public struct FillStyle: Equatable {
    /// https://developer.apple.com/documentation/swiftui/fillstyle/init(eofill:antialiased:)
    public init(eoFill: Bool = false, antialiased: Bool = true) {}
}

/// https://developer.apple.com/documentation/swiftui/path
@frozen public struct Path: Equatable {
    /// https://developer.apple.com/documentation/swiftui/path/init(roundedrect:cornerradius:style:)
    public init(roundedRect rect: CGRect, cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {}
}

extension Gradient {
    /// https://developer.apple.com/documentation/swiftui/gradient/init(colors:)
    public init(colors: [Color]) {}
}

/// https://developer.apple.com/documentation/swiftui/colorrenderingmode
public enum ColorRenderingMode: Equatable, Hashable, Sendable { case nonLinear, linear, extendedLinear }

/// https://developer.apple.com/documentation/swiftui/graphicscontext
@frozen public struct GraphicsContext {
    /// https://developer.apple.com/documentation/swiftui/graphicscontext/blendmode-swift.struct
    @frozen public struct BlendMode: RawRepresentable, Equatable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// https://developer.apple.com/documentation/swiftui/graphicscontext/blendmode-swift.struct/normal
        public static var normal: BlendMode { BlendMode(rawValue: 0) }
        /// https://developer.apple.com/documentation/swiftui/graphicscontext/blendmode-swift.struct/pluslighter
        public static var plusLighter: BlendMode { BlendMode(rawValue: 27) }
    }
    /// https://developer.apple.com/documentation/swiftui/graphicscontext/gradientoptions
    @frozen public struct GradientOptions: OptionSet {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
    }
    /// https://developer.apple.com/documentation/swiftui/graphicscontext/shading
    public struct Shading {
        /// https://developer.apple.com/documentation/swiftui/graphicscontext/shading/color(_:)
        public static func color(_ color: Color) -> Shading { Shading() }
        /// https://developer.apple.com/documentation/swiftui/graphicscontext/shading/lineargradient(_:startpoint:endpoint:options:)
        public static func linearGradient(_ gradient: Gradient, startPoint: CGPoint, endPoint: CGPoint,
                                          options: GraphicsContext.GradientOptions = GradientOptions()) -> Shading { Shading() }
    }
    /// https://developer.apple.com/documentation/swiftui/graphicscontext/filter
    public struct Filter {
        /// https://developer.apple.com/documentation/swiftui/graphicscontext/filter/colormultiply(_:)
        public static func colorMultiply(_ color: Color) -> Filter { Filter() }
    }
    /// https://developer.apple.com/documentation/swiftui/graphicscontext/filteroptions
    @frozen public struct FilterOptions: OptionSet {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
    }
    /// https://developer.apple.com/documentation/swiftui/graphicscontext/resolvedimage
    public struct ResolvedImage {
        /// https://developer.apple.com/documentation/swiftui/graphicscontext/resolvedimage/size
        public var size: CGSize { .zero }
        /// https://developer.apple.com/documentation/swiftui/graphicscontext/resolvedimage/shading
        public var shading: GraphicsContext.Shading?
    }

    /// https://developer.apple.com/documentation/swiftui/graphicscontext/opacity
    public var opacity: Double
    /// https://developer.apple.com/documentation/swiftui/graphicscontext/blendmode-swift.property
    public var blendMode: GraphicsContext.BlendMode
    /// https://developer.apple.com/documentation/swiftui/graphicscontext/translateby(x:y:)
    public mutating func translateBy(x: CGFloat, y: CGFloat) {}
    /// https://developer.apple.com/documentation/swiftui/graphicscontext/rotate(by:)
    public mutating func rotate(by angle: Angle) {}
    /// https://developer.apple.com/documentation/swiftui/graphicscontext/scaleby(x:y:)
    public mutating func scaleBy(x: CGFloat, y: CGFloat) {}
    /// https://developer.apple.com/documentation/swiftui/graphicscontext/addfilter(_:options:)
    public mutating func addFilter(_ filter: GraphicsContext.Filter, options: GraphicsContext.FilterOptions = FilterOptions()) {}
    /// https://developer.apple.com/documentation/swiftui/graphicscontext/resolve(_:)-898z6
    public func resolve(_ image: Image) -> GraphicsContext.ResolvedImage { ResolvedImage() }
    /// https://developer.apple.com/documentation/swiftui/graphicscontext/draw(_:in:style:)-blhz
    public func draw(_ image: GraphicsContext.ResolvedImage, in rect: CGRect, style: FillStyle = FillStyle()) {}
    /// https://developer.apple.com/documentation/swiftui/graphicscontext/fill(_:with:style:)
    public func fill(_ path: Path, with shading: GraphicsContext.Shading, style: FillStyle = FillStyle()) {}
}

/// https://developer.apple.com/documentation/swiftui/canvas
@available(iOS 15.0, macOS 12.0, *)
public struct Canvas<Symbols>: View where Symbols: View {
    public var body: Never { fatalError() }
}

@available(iOS 15.0, macOS 12.0, *)
extension Canvas where Symbols == EmptyView {
    /// https://developer.apple.com/documentation/swiftui/canvas/init(opaque:colormode:rendersasynchronously:renderer:)
    nonisolated public init(opaque: Bool = false, colorMode: ColorRenderingMode = .nonLinear, rendersAsynchronously: Bool = false,
                            renderer: @escaping (inout GraphicsContext, CGSize) -> Void) {}
}

// MARK: Time

/// https://developer.apple.com/documentation/swiftui/timelineschedulemode
public enum TimelineScheduleMode: Sendable { case normal, lowFrequency }

/// https://developer.apple.com/documentation/swiftui/timelineschedule
@available(iOS 15.0, macOS 12.0, *)
public protocol TimelineSchedule {
    associatedtype Entries: Sequence where Self.Entries.Element == Date
    /// https://developer.apple.com/documentation/swiftui/timelineschedule/entries(from:mode:)
    func entries(from startDate: Date, mode: TimelineScheduleMode) -> Self.Entries
}

/// https://developer.apple.com/documentation/swiftui/everyminutetimelineschedule
@available(iOS 15.0, macOS 12.0, *)
public struct EveryMinuteTimelineSchedule: TimelineSchedule, Sendable {
    public func entries(from startDate: Date, mode: TimelineScheduleMode) -> [Date] { [] }
}

/// https://developer.apple.com/documentation/swiftui/animationtimelineschedule
@available(iOS 15.0, macOS 12.0, *)
public struct AnimationTimelineSchedule: TimelineSchedule, Sendable {
    public func entries(from startDate: Date, mode: TimelineScheduleMode) -> [Date] { [] }
}

@available(iOS 15.0, macOS 12.0, *)
extension TimelineSchedule where Self == AnimationTimelineSchedule {
    /// https://developer.apple.com/documentation/swiftui/timelineschedule/animation
    public static var animation: AnimationTimelineSchedule { AnimationTimelineSchedule() }
}

/// https://developer.apple.com/documentation/swiftui/timelineview
@available(iOS 15.0, macOS 12.0, *)
public struct TimelineView<Schedule, Content> where Schedule: TimelineSchedule {
    /// https://developer.apple.com/documentation/swiftui/timelineview/context
    public struct Context {
        /// https://developer.apple.com/documentation/swiftui/timelineview/context/date
        public let date: Date
    }
}

/// https://developer.apple.com/documentation/swiftui/timelineviewdefaultcontext
@available(iOS 15.0, macOS 12.0, *)
public typealias TimelineViewDefaultContext = TimelineView<EveryMinuteTimelineSchedule, Never>.Context

@available(iOS 15.0, macOS 12.0, *)
extension TimelineView: View where Content: View {
    /// https://developer.apple.com/documentation/swiftui/timelineview/init(_:content:)-1mlmj
    nonisolated public init(_ schedule: Schedule, @ViewBuilder content: @escaping (TimelineViewDefaultContext) -> Content) {}
    public var body: Never { fatalError() }
}

// MARK: Hosting Core Animation

#if canImport(UIKit)
/// https://developer.apple.com/documentation/swiftui/uiviewrepresentablecontext
@MainActor @preconcurrency public struct UIViewRepresentableContext<Representable> where Representable: UIViewRepresentable {
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentablecontext/coordinator
    public let coordinator: Representable.Coordinator
}

/// https://developer.apple.com/documentation/swiftui/uiviewrepresentable
@MainActor @preconcurrency public protocol UIViewRepresentable: View where Self.Body == Never {
    associatedtype UIViewType: UIView
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/coordinator
    associatedtype Coordinator = Void
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/makeuiview(context:)
    @MainActor @preconcurrency func makeUIView(context: Self.Context) -> Self.UIViewType
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/updateuiview(_:context:)
    @MainActor @preconcurrency func updateUIView(_ uiView: Self.UIViewType, context: Self.Context)
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/makecoordinator()
    @MainActor @preconcurrency func makeCoordinator() -> Self.Coordinator
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/context
    typealias Context = UIViewRepresentableContext<Self>
}

extension UIViewRepresentable where Self.Body == Never {
    public var body: Never { fatalError() }
}

extension UIViewRepresentable where Self.Coordinator == Void {
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/makecoordinator() (its default, where Coordinator is Void)
    public func makeCoordinator() -> Self.Coordinator { () }
}
#else
/// https://developer.apple.com/documentation/swiftui/nsviewrepresentablecontext
@MainActor @preconcurrency public struct NSViewRepresentableContext<Representable> where Representable: NSViewRepresentable {
    /// https://developer.apple.com/documentation/swiftui/nsviewrepresentablecontext/coordinator
    public let coordinator: Representable.Coordinator
}

/// https://developer.apple.com/documentation/swiftui/nsviewrepresentable
@MainActor @preconcurrency public protocol NSViewRepresentable: View where Self.Body == Never {
    associatedtype NSViewType: NSView
    /// https://developer.apple.com/documentation/swiftui/nsviewrepresentable/coordinator
    associatedtype Coordinator = Void
    /// https://developer.apple.com/documentation/swiftui/nsviewrepresentable/makensview(context:)
    @MainActor @preconcurrency func makeNSView(context: Self.Context) -> Self.NSViewType
    /// https://developer.apple.com/documentation/swiftui/nsviewrepresentable/updatensview(_:context:)
    @MainActor @preconcurrency func updateNSView(_ nsView: Self.NSViewType, context: Self.Context)
    /// https://developer.apple.com/documentation/swiftui/nsviewrepresentable/makecoordinator()
    @MainActor @preconcurrency func makeCoordinator() -> Self.Coordinator
    /// https://developer.apple.com/documentation/swiftui/nsviewrepresentable/context
    typealias Context = NSViewRepresentableContext<Self>
}

extension NSViewRepresentable where Self.Body == Never {
    public var body: Never { fatalError() }
}

extension NSViewRepresentable where Self.Coordinator == Void {
    /// https://developer.apple.com/documentation/swiftui/nsviewrepresentable/makecoordinator() (its default, where Coordinator is Void)
    public func makeCoordinator() -> Self.Coordinator { () }
}
#endif
