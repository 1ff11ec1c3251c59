// A test-only stand-in for Apple's QuartzCore (Core Animation): the declarations `welkin
// export-code` uses, with Apple's signatures (see CoreGraphics.swift). Classes are `open` because
// Objective-C classes can be subclassed from Swift.

@_exported import CoreGraphics
import Metal

/// https://developer.apple.com/documentation/corefoundation/cftimeinterval
public typealias CFTimeInterval = Double

/// https://developer.apple.com/documentation/quartzcore/1395996-cacurrentmediatime
public func CACurrentMediaTime() -> CFTimeInterval { 0 }

/// https://developer.apple.com/documentation/quartzcore/camediatiming
public protocol CAMediaTiming {
    /// https://developer.apple.com/documentation/quartzcore/camediatiming/begintime
    var beginTime: CFTimeInterval { get set }
    /// https://developer.apple.com/documentation/quartzcore/camediatiming/timeoffset
    var timeOffset: CFTimeInterval { get set }
    /// https://developer.apple.com/documentation/quartzcore/camediatiming/duration
    var duration: CFTimeInterval { get set }
    /// https://developer.apple.com/documentation/quartzcore/camediatiming/repeatcount
    var repeatCount: Float { get set }
    /// https://developer.apple.com/documentation/quartzcore/camediatiming/fillmode
    var fillMode: CAMediaTimingFillMode { get set }
}

/// https://developer.apple.com/documentation/quartzcore/camediatimingfillmode
public struct CAMediaTimingFillMode: Hashable, RawRepresentable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/quartzcore/camediatimingfillmode/forwards
    public static let forwards = CAMediaTimingFillMode(rawValue: "forwards")
    /// https://developer.apple.com/documentation/quartzcore/camediatimingfillmode/both
    public static let both = CAMediaTimingFillMode(rawValue: "both")
}

/// https://developer.apple.com/documentation/quartzcore/camediatimingfunction
open class CAMediaTimingFunction: NSObject {
    /// https://developer.apple.com/documentation/quartzcore/camediatimingfunction/init(controlpoints:_:_:_:)
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {}
    /// https://developer.apple.com/documentation/quartzcore/camediatimingfunction/init(name:)
    public convenience init(name: CAMediaTimingFunctionName) { self.init(controlPoints: 0, 0, 1, 1) }
}

/// https://developer.apple.com/documentation/quartzcore/camediatimingfunctionname
public struct CAMediaTimingFunctionName: Hashable, RawRepresentable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/quartzcore/camediatimingfunctionname/linear
    public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
}

/// https://developer.apple.com/documentation/quartzcore/caanimationcalculationmode
public struct CAAnimationCalculationMode: Hashable, RawRepresentable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/quartzcore/caanimationcalculationmode/linear
    public static let linear = CAAnimationCalculationMode(rawValue: "linear")
}

/// https://developer.apple.com/documentation/quartzcore/calayer
open class CALayer: NSObject, CAMediaTiming {
    /// https://developer.apple.com/documentation/quartzcore/calayer/init()
    public override init() {}
    /// https://developer.apple.com/documentation/quartzcore/calayer/init(layer:)
    public init(layer: Any) {}
    /// https://developer.apple.com/documentation/quartzcore/calayer/init(coder:)
    public required init?(coder: NSCoder) {}

    /// https://developer.apple.com/documentation/quartzcore/calayer/frame
    open var frame: CGRect = .zero
    /// https://developer.apple.com/documentation/quartzcore/calayer/bounds
    open var bounds: CGRect = .zero
    /// https://developer.apple.com/documentation/quartzcore/calayer/backgroundcolor
    open var backgroundColor: CGColor?
    /// https://developer.apple.com/documentation/quartzcore/calayer/opacity
    open var opacity: Float = 1
    /// https://developer.apple.com/documentation/quartzcore/calayer/isopaque
    open var isOpaque: Bool = false
    /// https://developer.apple.com/documentation/quartzcore/calayer/addsublayer(_:)
    open func addSublayer(_ layer: CALayer) {}
    /// https://developer.apple.com/documentation/quartzcore/calayer/layoutsublayers()
    open func layoutSublayers() {}
    /// https://developer.apple.com/documentation/quartzcore/calayer/add(_:forkey:)
    open func add(_ anim: CAAnimation, forKey key: String?) {}
    /// https://developer.apple.com/documentation/quartzcore/calayer/anchorpoint
    open var anchorPoint: CGPoint = CGPoint(x: 0.5, y: 0.5)
    /// https://developer.apple.com/documentation/quartzcore/calayer/shadowcolor
    open var shadowColor: CGColor?
    /// https://developer.apple.com/documentation/quartzcore/calayer/shadowradius
    open var shadowRadius: CGFloat = 3
    /// https://developer.apple.com/documentation/quartzcore/calayer/shadowoffset
    open var shadowOffset: CGSize = CGSize(width: 0, height: -3)
    /// https://developer.apple.com/documentation/quartzcore/calayer/shadowopacity
    open var shadowOpacity: Float = 0
    /// https://developer.apple.com/documentation/objectivec/nsobject/1418480-setvalue (NSObject's key-value
    /// coding; CALayer's key paths include "transform.scale.x", "transform.rotation.z", "transform.translation.y")
    open func setValue(_ value: Any?, forKeyPath keyPath: String) {}

    open var beginTime: CFTimeInterval = 0
    open var timeOffset: CFTimeInterval = 0
    open var duration: CFTimeInterval = 0
    open var repeatCount: Float = 0
    open var fillMode: CAMediaTimingFillMode = .forwards
}

/// https://developer.apple.com/documentation/quartzcore/cagradientlayertype
public struct CAGradientLayerType: Hashable, RawRepresentable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/quartzcore/cagradientlayertype/axial
    public static let axial = CAGradientLayerType(rawValue: "axial")
    /// https://developer.apple.com/documentation/quartzcore/cagradientlayertype/radial
    public static let radial = CAGradientLayerType(rawValue: "radial")
    /// https://developer.apple.com/documentation/quartzcore/cagradientlayertype/conic
    public static let conic = CAGradientLayerType(rawValue: "conic")
}

/// https://developer.apple.com/documentation/quartzcore/cagradientlayer
open class CAGradientLayer: CALayer {
    /// https://developer.apple.com/documentation/quartzcore/cagradientlayer/type
    open var type: CAGradientLayerType = .axial
    /// https://developer.apple.com/documentation/quartzcore/cagradientlayer/colors
    open var colors: [Any]?
    /// https://developer.apple.com/documentation/quartzcore/cagradientlayer/locations
    open var locations: [NSNumber]?
    /// https://developer.apple.com/documentation/quartzcore/cagradientlayer/startpoint
    open var startPoint: CGPoint = .zero
    /// https://developer.apple.com/documentation/quartzcore/cagradientlayer/endpoint
    open var endPoint: CGPoint = .zero
}

/// https://developer.apple.com/documentation/quartzcore/caemitterlayeremittershape
public struct CAEmitterLayerEmitterShape: Hashable, RawRepresentable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayeremittershape/point
    public static let point = CAEmitterLayerEmitterShape(rawValue: "point")
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayeremittershape/line
    public static let line = CAEmitterLayerEmitterShape(rawValue: "line")
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayeremittershape/rectangle
    public static let rectangle = CAEmitterLayerEmitterShape(rawValue: "rectangle")
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayeremittershape/circle
    public static let circle = CAEmitterLayerEmitterShape(rawValue: "circle")
}

/// https://developer.apple.com/documentation/quartzcore/caemitterlayeremittermode
public struct CAEmitterLayerEmitterMode: Hashable, RawRepresentable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayeremittermode/points
    public static let points = CAEmitterLayerEmitterMode(rawValue: "points")
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayeremittermode/outline
    public static let outline = CAEmitterLayerEmitterMode(rawValue: "outline")
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayeremittermode/surface
    public static let surface = CAEmitterLayerEmitterMode(rawValue: "surface")
}

/// https://developer.apple.com/documentation/quartzcore/caemitterlayerrendermode
public struct CAEmitterLayerRenderMode: Hashable, RawRepresentable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayerrendermode/oldestfirst
    public static let oldestFirst = CAEmitterLayerRenderMode(rawValue: "oldestFirst")
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayerrendermode/oldestlast
    public static let oldestLast = CAEmitterLayerRenderMode(rawValue: "oldestLast")
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayerrendermode/additive
    public static let additive = CAEmitterLayerRenderMode(rawValue: "additive")
}

/// https://developer.apple.com/documentation/quartzcore/caemitterlayer
open class CAEmitterLayer: CALayer {
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayer/emittercells
    open var emitterCells: [CAEmitterCell]?
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayer/emitterposition
    open var emitterPosition: CGPoint = .zero
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayer/emittersize
    open var emitterSize: CGSize = .zero
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayer/emittershape
    open var emitterShape: CAEmitterLayerEmitterShape = .point
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayer/emittermode
    open var emitterMode: CAEmitterLayerEmitterMode = .volume
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayer/rendermode
    open var renderMode: CAEmitterLayerRenderMode = .unordered
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayer/birthrate
    open var birthRate: Float = 1
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayer/lifetime
    open var lifetime: Float = 1
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayer/velocity
    open var velocity: Float = 1
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayer/scale
    open var scale: Float = 1
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayer/spin
    open var spin: Float = 1
    /// https://developer.apple.com/documentation/quartzcore/caemitterlayer/seed
    open var seed: UInt32 = 0
}

extension CAEmitterLayerEmitterMode {
    /// (Only as the stub's default.) https://developer.apple.com/documentation/quartzcore/caemitterlayeremittermode/volume
    public static let volume = CAEmitterLayerEmitterMode(rawValue: "volume")
}

extension CAEmitterLayerRenderMode {
    /// (Only as the stub's default.) https://developer.apple.com/documentation/quartzcore/caemitterlayerrendermode/unordered
    public static let unordered = CAEmitterLayerRenderMode(rawValue: "unordered")
}

/// https://developer.apple.com/documentation/quartzcore/caemittercell
open class CAEmitterCell: NSObject {
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/init()
    public override init() {}
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/name
    open var name: String?
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/isenabled
    open var isEnabled: Bool = true
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/contents
    open var contents: Any?
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/contentsscale
    open var contentsScale: CGFloat = 1
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/birthrate
    open var birthRate: Float = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/lifetime
    open var lifetime: Float = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/lifetimerange
    open var lifetimeRange: Float = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/velocity
    open var velocity: CGFloat = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/velocityrange
    open var velocityRange: CGFloat = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/emissionlongitude
    open var emissionLongitude: CGFloat = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/emissionrange
    open var emissionRange: CGFloat = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/xacceleration
    open var xAcceleration: CGFloat = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/yacceleration
    open var yAcceleration: CGFloat = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/scale
    open var scale: CGFloat = 1
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/scalerange
    open var scaleRange: CGFloat = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/scalespeed
    open var scaleSpeed: CGFloat = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/spin
    open var spin: CGFloat = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/spinrange
    open var spinRange: CGFloat = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/color
    open var color: CGColor?
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/redrange
    open var redRange: Float = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/greenrange
    open var greenRange: Float = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/bluerange
    open var blueRange: Float = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/alpharange
    open var alphaRange: Float = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/redspeed
    open var redSpeed: Float = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/greenspeed
    open var greenSpeed: Float = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/bluespeed
    open var blueSpeed: Float = 0
    /// https://developer.apple.com/documentation/quartzcore/caemittercell/alphaspeed
    open var alphaSpeed: Float = 0
}

/// https://developer.apple.com/documentation/quartzcore/caanimation
open class CAAnimation: NSObject, CAMediaTiming {
    /// https://developer.apple.com/documentation/quartzcore/caanimation/isremovedoncompletion
    open var isRemovedOnCompletion: Bool = true
    open var beginTime: CFTimeInterval = 0
    open var timeOffset: CFTimeInterval = 0
    open var duration: CFTimeInterval = 0
    open var repeatCount: Float = 0
    open var fillMode: CAMediaTimingFillMode = .forwards
    /// https://developer.apple.com/documentation/quartzcore/camediatiming/autoreverses
    open var autoreverses: Bool = false
    /// https://developer.apple.com/documentation/quartzcore/camediatiming/speed
    open var speed: Float = 1
    /// https://developer.apple.com/documentation/quartzcore/caanimation/timingfunction
    open var timingFunction: CAMediaTimingFunction?
}

/// https://developer.apple.com/documentation/quartzcore/capropertyanimation
open class CAPropertyAnimation: CAAnimation {
    /// https://developer.apple.com/documentation/quartzcore/capropertyanimation/init(keypath:)
    public convenience init(keyPath path: String?) { self.init() }
}

/// https://developer.apple.com/documentation/quartzcore/cakeyframeanimation
open class CAKeyframeAnimation: CAPropertyAnimation {
    /// https://developer.apple.com/documentation/quartzcore/cakeyframeanimation/values
    open var values: [Any]?
    /// https://developer.apple.com/documentation/quartzcore/cakeyframeanimation/keytimes
    open var keyTimes: [NSNumber]?
    /// https://developer.apple.com/documentation/quartzcore/cakeyframeanimation/timingfunctions
    open var timingFunctions: [CAMediaTimingFunction]?
    /// https://developer.apple.com/documentation/quartzcore/cakeyframeanimation/calculationmode
    open var calculationMode: CAAnimationCalculationMode = .linear
}

/// https://developer.apple.com/documentation/quartzcore/cabasicanimation
open class CABasicAnimation: CAPropertyAnimation {
    /// https://developer.apple.com/documentation/quartzcore/cabasicanimation/fromvalue
    open var fromValue: Any?
    /// https://developer.apple.com/documentation/quartzcore/cabasicanimation/tovalue
    open var toValue: Any?
}

/// https://developer.apple.com/documentation/quartzcore/caspringanimation
open class CASpringAnimation: CABasicAnimation {
    /// https://developer.apple.com/documentation/quartzcore/caspringanimation/mass
    open var mass: CGFloat = 1
    /// https://developer.apple.com/documentation/quartzcore/caspringanimation/stiffness
    open var stiffness: CGFloat = 100
    /// https://developer.apple.com/documentation/quartzcore/caspringanimation/damping
    open var damping: CGFloat = 10
    /// https://developer.apple.com/documentation/quartzcore/caspringanimation/initialvelocity
    open var initialVelocity: CGFloat = 0
    /// https://developer.apple.com/documentation/quartzcore/caspringanimation/settlingduration
    open var settlingDuration: CFTimeInterval { 0 }
}

/// https://developer.apple.com/documentation/quartzcore/cametallayer
open class CAMetalLayer: CALayer {
    /// https://developer.apple.com/documentation/quartzcore/cametallayer/colorspace
    open var colorspace: CGColorSpace?
}

/// https://developer.apple.com/documentation/quartzcore/cametaldrawable
public protocol CAMetalDrawable: MTLDrawable {
    /// https://developer.apple.com/documentation/quartzcore/cametaldrawable/texture
    var texture: any MTLTexture { get }
}
