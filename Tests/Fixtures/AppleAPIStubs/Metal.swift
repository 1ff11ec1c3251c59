// A test-only stand-in for Apple's Metal: the declarations `welkin export-code --package` uses
// (WelkinMetal.swift, MetalRuntime), with Apple's signatures (see CoreGraphics.swift). Metal's
// objects are Objective-C protocols (`any MTLDevice`, …); its descriptors are classes.

@_exported import Foundation

// MARK: Devices, queues, command buffers

/// https://developer.apple.com/documentation/metal/mtlcreatesystemdefaultdevice()
public func MTLCreateSystemDefaultDevice() -> (any MTLDevice)? { nil }

/// https://developer.apple.com/documentation/metal/mtldevice
public protocol MTLDevice: NSObjectProtocol {
    /// https://developer.apple.com/documentation/metal/mtldevice/makecommandqueue()
    func makeCommandQueue() -> (any MTLCommandQueue)?
    /// https://developer.apple.com/documentation/metal/mtldevice/makebuffer(bytes:length:options:)
    func makeBuffer(bytes pointer: UnsafeRawPointer, length: Int, options: MTLResourceOptions) -> (any MTLBuffer)?
    /// https://developer.apple.com/documentation/metal/mtldevice/makedefaultlibrary(bundle:)
    func makeDefaultLibrary(bundle: Bundle) throws -> any MTLLibrary
    /// https://developer.apple.com/documentation/metal/mtldevice/makerenderpipelinestate(descriptor:)
    func makeRenderPipelineState(descriptor: MTLRenderPipelineDescriptor) throws -> any MTLRenderPipelineState
    /// https://developer.apple.com/documentation/metal/mtldevice/maketexture(descriptor:)
    func makeTexture(descriptor: MTLTextureDescriptor) -> (any MTLTexture)?
    /// https://developer.apple.com/documentation/metal/mtldevice/makesamplerstate(descriptor:)
    func makeSamplerState(descriptor: MTLSamplerDescriptor) -> (any MTLSamplerState)?
    /// https://developer.apple.com/documentation/metal/mtldevice/supportsfamily(_:)
    func supportsFamily(_ gpuFamily: MTLGPUFamily) -> Bool
}

/// https://developer.apple.com/documentation/metal/mtlgpufamily
public enum MTLGPUFamily: Int, Sendable {
    /// https://developer.apple.com/documentation/metal/mtlgpufamily/apple7
    case apple7 = 1007
}

/// https://developer.apple.com/documentation/metal/mtlcommandqueue
public protocol MTLCommandQueue: NSObjectProtocol {
    /// https://developer.apple.com/documentation/metal/mtlcommandqueue/makecommandbuffer()
    func makeCommandBuffer() -> (any MTLCommandBuffer)?
}

/// https://developer.apple.com/documentation/metal/mtldrawable
public protocol MTLDrawable: NSObjectProtocol {}

/// https://developer.apple.com/documentation/metal/mtlcommandbuffer
public protocol MTLCommandBuffer: NSObjectProtocol {
    /// https://developer.apple.com/documentation/metal/mtlcommandbuffer/makerendercommandencoder(descriptor:)
    func makeRenderCommandEncoder(descriptor renderPassDescriptor: MTLRenderPassDescriptor) -> (any MTLRenderCommandEncoder)?
    /// https://developer.apple.com/documentation/metal/mtlcommandbuffer/present(_:)
    func present(_ drawable: any MTLDrawable)
    /// https://developer.apple.com/documentation/metal/mtlcommandbuffer/commit()
    func commit()
}

// MARK: Resources

/// https://developer.apple.com/documentation/metal/mtlresourceoptions
public struct MTLResourceOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
}

/// https://developer.apple.com/documentation/metal/mtlresource
public protocol MTLResource: NSObjectProtocol {}

/// https://developer.apple.com/documentation/metal/mtlbuffer
public protocol MTLBuffer: MTLResource {
    /// https://developer.apple.com/documentation/metal/mtlbuffer/contents()
    func contents() -> UnsafeMutableRawPointer
}

/// https://developer.apple.com/documentation/metal/mtlpixelformat
public enum MTLPixelFormat: UInt, Sendable {
    /// https://developer.apple.com/documentation/metal/mtlpixelformat/r8unorm
    case r8Unorm = 10
    /// https://developer.apple.com/documentation/metal/mtlpixelformat/rgba8unorm
    case rgba8Unorm = 70
    /// https://developer.apple.com/documentation/metal/mtlpixelformat/bgra8unorm
    case bgra8Unorm = 80
    /// https://developer.apple.com/documentation/metal/mtlpixelformat/rg32uint
    case rg32Uint = 103
    /// https://developer.apple.com/documentation/metal/mtlpixelformat/rg32float
    case rg32Float = 105
    /// https://developer.apple.com/documentation/metal/mtlpixelformat/rgba16float
    case rgba16Float = 115
    /// https://developer.apple.com/documentation/metal/mtlpixelformat/rgba32float
    case rgba32Float = 125
    /// https://developer.apple.com/documentation/metal/mtlpixelformat/bgra10_xr
    case bgra10_xr = 552
}

/// https://developer.apple.com/documentation/metal/mtltexturetype
public enum MTLTextureType: UInt, Sendable {
    /// https://developer.apple.com/documentation/metal/mtltexturetype/type2d
    case type2D = 2
    /// https://developer.apple.com/documentation/metal/mtltexturetype/type3d
    case type3D = 7
}

/// https://developer.apple.com/documentation/metal/mtltextureusage
public struct MTLTextureUsage: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/metal/mtltextureusage/shaderread
    public static let shaderRead = MTLTextureUsage(rawValue: 1)
    /// https://developer.apple.com/documentation/metal/mtltextureusage/rendertarget
    public static let renderTarget = MTLTextureUsage(rawValue: 4)
}

/// https://developer.apple.com/documentation/metal/mtlstoragemode
public enum MTLStorageMode: UInt, Sendable {
    /// https://developer.apple.com/documentation/metal/mtlstoragemode/shared
    case shared = 0
    /// https://developer.apple.com/documentation/metal/mtlstoragemode/private
    case `private` = 2
}

/// https://developer.apple.com/documentation/metal/mtltexturedescriptor
open class MTLTextureDescriptor: NSObject {
    public override init() {}
    /// https://developer.apple.com/documentation/metal/mtltexturedescriptor/texture2ddescriptor(pixelformat:width:height:mipmapped:)
    open class func texture2DDescriptor(pixelFormat: MTLPixelFormat, width: Int, height: Int, mipmapped: Bool) -> MTLTextureDescriptor {
        MTLTextureDescriptor()
    }
    /// https://developer.apple.com/documentation/metal/mtltexturedescriptor/texturetype
    open var textureType: MTLTextureType = .type2D
    /// https://developer.apple.com/documentation/metal/mtltexturedescriptor/pixelformat
    open var pixelFormat: MTLPixelFormat = .rgba8Unorm
    /// https://developer.apple.com/documentation/metal/mtltexturedescriptor/width
    open var width: Int = 1
    /// https://developer.apple.com/documentation/metal/mtltexturedescriptor/height
    open var height: Int = 1
    /// https://developer.apple.com/documentation/metal/mtltexturedescriptor/depth
    open var depth: Int = 1
    /// https://developer.apple.com/documentation/metal/mtltexturedescriptor/usage
    open var usage: MTLTextureUsage = .shaderRead
    /// https://developer.apple.com/documentation/metal/mtltexturedescriptor/storagemode
    open var storageMode: MTLStorageMode = .shared
}

/// https://developer.apple.com/documentation/metal/mtlorigin
public struct MTLOrigin: Sendable {
    public var x: Int, y: Int, z: Int
    /// https://developer.apple.com/documentation/metal/mtlorigin/init(x:y:z:)
    public init(x: Int, y: Int, z: Int) { self.x = x; self.y = y; self.z = z }
}

/// https://developer.apple.com/documentation/metal/mtlsize
public struct MTLSize: Sendable {
    public var width: Int, height: Int, depth: Int
    /// https://developer.apple.com/documentation/metal/mtlsize/init(width:height:depth:)
    public init(width: Int, height: Int, depth: Int) { self.width = width; self.height = height; self.depth = depth }
}

/// https://developer.apple.com/documentation/metal/mtlregion
public struct MTLRegion: Sendable {
    public var origin: MTLOrigin
    public var size: MTLSize
    /// https://developer.apple.com/documentation/metal/mtlregion/init(origin:size:)
    public init(origin: MTLOrigin, size: MTLSize) { self.origin = origin; self.size = size }
}

/// https://developer.apple.com/documentation/metal/mtlregionmake2d(_:_:_:_:)
public func MTLRegionMake2D(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> MTLRegion {
    MTLRegion(origin: MTLOrigin(x: x, y: y, z: 0), size: MTLSize(width: width, height: height, depth: 1))
}

/// https://developer.apple.com/documentation/metal/mtlregionmake3d(_:_:_:_:_:_:)
public func MTLRegionMake3D(_ x: Int, _ y: Int, _ z: Int, _ width: Int, _ height: Int, _ depth: Int) -> MTLRegion {
    MTLRegion(origin: MTLOrigin(x: x, y: y, z: z), size: MTLSize(width: width, height: height, depth: depth))
}

/// https://developer.apple.com/documentation/metal/mtltexture
public protocol MTLTexture: MTLResource {
    /// https://developer.apple.com/documentation/metal/mtltexture/width
    var width: Int { get }
    /// https://developer.apple.com/documentation/metal/mtltexture/height
    var height: Int { get }
    /// https://developer.apple.com/documentation/metal/mtltexture/replace(region:mipmaplevel:withbytes:bytesperrow:)
    func replace(region: MTLRegion, mipmapLevel level: Int, withBytes pixelBytes: UnsafeRawPointer, bytesPerRow: Int)
    /// https://developer.apple.com/documentation/metal/mtltexture/replace(region:mipmaplevel:slice:withbytes:bytesperrow:bytesperimage:)
    func replace(region: MTLRegion, mipmapLevel level: Int, slice: Int, withBytes pixelBytes: UnsafeRawPointer, bytesPerRow: Int, bytesPerImage: Int)
}

// MARK: Sampling

/// https://developer.apple.com/documentation/metal/mtlsamplerminmagfilter
public enum MTLSamplerMinMagFilter: UInt, Sendable {
    /// https://developer.apple.com/documentation/metal/mtlsamplerminmagfilter/nearest
    case nearest = 0
    /// https://developer.apple.com/documentation/metal/mtlsamplerminmagfilter/linear
    case linear = 1
}

/// https://developer.apple.com/documentation/metal/mtlsampleraddressmode
public enum MTLSamplerAddressMode: UInt, Sendable {
    /// https://developer.apple.com/documentation/metal/mtlsampleraddressmode/clamptoedge
    case clampToEdge = 0
    /// https://developer.apple.com/documentation/metal/mtlsampleraddressmode/repeat
    case `repeat` = 2
}

/// https://developer.apple.com/documentation/metal/mtlsamplerdescriptor
open class MTLSamplerDescriptor: NSObject {
    public override init() {}
    /// https://developer.apple.com/documentation/metal/mtlsamplerdescriptor/minfilter
    open var minFilter: MTLSamplerMinMagFilter = .nearest
    /// https://developer.apple.com/documentation/metal/mtlsamplerdescriptor/magfilter
    open var magFilter: MTLSamplerMinMagFilter = .nearest
    /// https://developer.apple.com/documentation/metal/mtlsamplerdescriptor/saddressmode
    open var sAddressMode: MTLSamplerAddressMode = .clampToEdge
    /// https://developer.apple.com/documentation/metal/mtlsamplerdescriptor/taddressmode
    open var tAddressMode: MTLSamplerAddressMode = .clampToEdge
    /// https://developer.apple.com/documentation/metal/mtlsamplerdescriptor/raddressmode
    open var rAddressMode: MTLSamplerAddressMode = .clampToEdge
}

/// https://developer.apple.com/documentation/metal/mtlsamplerstate
public protocol MTLSamplerState: NSObjectProtocol {}

// MARK: Pipelines

/// https://developer.apple.com/documentation/metal/mtllibrary
public protocol MTLLibrary: NSObjectProtocol {
    /// https://developer.apple.com/documentation/metal/mtllibrary/makefunction(name:)
    func makeFunction(name functionName: String) -> (any MTLFunction)?
}

/// https://developer.apple.com/documentation/metal/mtlfunction
public protocol MTLFunction: NSObjectProtocol {}

/// https://developer.apple.com/documentation/metal/mtlrenderpipelinecolorattachmentdescriptor
open class MTLRenderPipelineColorAttachmentDescriptor: NSObject {
    /// https://developer.apple.com/documentation/metal/mtlrenderpipelinecolorattachmentdescriptor/pixelformat
    open var pixelFormat: MTLPixelFormat = .rgba8Unorm
    /// https://developer.apple.com/documentation/metal/mtlrenderpipelinecolorattachmentdescriptor/isblendingenabled
    open var isBlendingEnabled: Bool = false
    /// https://developer.apple.com/documentation/metal/mtlrenderpipelinecolorattachmentdescriptor/rgbblendoperation
    open var rgbBlendOperation: MTLBlendOperation = .add
    /// https://developer.apple.com/documentation/metal/mtlrenderpipelinecolorattachmentdescriptor/alphablendoperation
    open var alphaBlendOperation: MTLBlendOperation = .add
    /// https://developer.apple.com/documentation/metal/mtlrenderpipelinecolorattachmentdescriptor/sourcergbblendfactor
    open var sourceRGBBlendFactor: MTLBlendFactor = .one
    /// https://developer.apple.com/documentation/metal/mtlrenderpipelinecolorattachmentdescriptor/sourcealphablendfactor
    open var sourceAlphaBlendFactor: MTLBlendFactor = .one
    /// https://developer.apple.com/documentation/metal/mtlrenderpipelinecolorattachmentdescriptor/destinationrgbblendfactor
    open var destinationRGBBlendFactor: MTLBlendFactor = .zero
    /// https://developer.apple.com/documentation/metal/mtlrenderpipelinecolorattachmentdescriptor/destinationalphablendfactor
    open var destinationAlphaBlendFactor: MTLBlendFactor = .zero
}

/// https://developer.apple.com/documentation/metal/mtlblendoperation
public enum MTLBlendOperation: UInt, Sendable {
    /// https://developer.apple.com/documentation/metal/mtlblendoperation/add
    case add = 0
}

/// https://developer.apple.com/documentation/metal/mtlblendfactor
public enum MTLBlendFactor: UInt, Sendable {
    /// https://developer.apple.com/documentation/metal/mtlblendfactor/zero
    case zero = 0
    /// https://developer.apple.com/documentation/metal/mtlblendfactor/one
    case one = 1
    /// https://developer.apple.com/documentation/metal/mtlblendfactor/oneminussourcealpha
    case oneMinusSourceAlpha = 5
}

/// https://developer.apple.com/documentation/metal/mtlrenderpipelinecolorattachmentdescriptorarray
open class MTLRenderPipelineColorAttachmentDescriptorArray: NSObject {
    /// https://developer.apple.com/documentation/metal/mtlrenderpipelinecolorattachmentdescriptorarray/subscript(_:)
    open subscript(attachmentIndex: Int) -> MTLRenderPipelineColorAttachmentDescriptor! {
        get { MTLRenderPipelineColorAttachmentDescriptor() }
        set {}
    }
}

/// https://developer.apple.com/documentation/metal/mtlrenderpipelinedescriptor
open class MTLRenderPipelineDescriptor: NSObject {
    public override init() {}
    /// https://developer.apple.com/documentation/metal/mtlrenderpipelinedescriptor/vertexfunction
    open var vertexFunction: (any MTLFunction)?
    /// https://developer.apple.com/documentation/metal/mtlrenderpipelinedescriptor/fragmentfunction
    open var fragmentFunction: (any MTLFunction)?
    /// https://developer.apple.com/documentation/metal/mtlrenderpipelinedescriptor/colorattachments
    open var colorAttachments: MTLRenderPipelineColorAttachmentDescriptorArray { MTLRenderPipelineColorAttachmentDescriptorArray() }
}

/// https://developer.apple.com/documentation/metal/mtlrenderpipelinestate
public protocol MTLRenderPipelineState: NSObjectProtocol {}

// MARK: Render passes

/// https://developer.apple.com/documentation/metal/mtlloadaction
public enum MTLLoadAction: UInt, Sendable {
    /// https://developer.apple.com/documentation/metal/mtlloadaction/dontcare
    case dontCare = 0
    /// https://developer.apple.com/documentation/metal/mtlloadaction/load
    case load = 1
    /// https://developer.apple.com/documentation/metal/mtlloadaction/clear
    case clear = 2
}

/// https://developer.apple.com/documentation/metal/mtlstoreaction
public enum MTLStoreAction: UInt, Sendable {
    /// https://developer.apple.com/documentation/metal/mtlstoreaction/dontcare
    case dontCare = 0
    /// https://developer.apple.com/documentation/metal/mtlstoreaction/store
    case store = 1
}

/// https://developer.apple.com/documentation/metal/mtlclearcolor
public struct MTLClearColor: Sendable {
    public var red: Double, green: Double, blue: Double, alpha: Double
    /// https://developer.apple.com/documentation/metal/mtlclearcolor/init(red:green:blue:alpha:)
    public init(red: Double, green: Double, blue: Double, alpha: Double) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
}

/// https://developer.apple.com/documentation/metal/mtlrenderpassattachmentdescriptor
open class MTLRenderPassAttachmentDescriptor: NSObject {
    /// https://developer.apple.com/documentation/metal/mtlrenderpassattachmentdescriptor/texture
    open var texture: (any MTLTexture)?
    /// https://developer.apple.com/documentation/metal/mtlrenderpassattachmentdescriptor/loadaction
    open var loadAction: MTLLoadAction = .dontCare
    /// https://developer.apple.com/documentation/metal/mtlrenderpassattachmentdescriptor/storeaction
    open var storeAction: MTLStoreAction = .dontCare
}

/// https://developer.apple.com/documentation/metal/mtlrenderpasscolorattachmentdescriptor
open class MTLRenderPassColorAttachmentDescriptor: MTLRenderPassAttachmentDescriptor {
    /// https://developer.apple.com/documentation/metal/mtlrenderpasscolorattachmentdescriptor/clearcolor
    open var clearColor = MTLClearColor(red: 0, green: 0, blue: 0, alpha: 1)
}

/// https://developer.apple.com/documentation/metal/mtlrenderpasscolorattachmentdescriptorarray
open class MTLRenderPassColorAttachmentDescriptorArray: NSObject {
    /// https://developer.apple.com/documentation/metal/mtlrenderpasscolorattachmentdescriptorarray/subscript(_:)
    open subscript(attachmentIndex: Int) -> MTLRenderPassColorAttachmentDescriptor! {
        get { MTLRenderPassColorAttachmentDescriptor() }
        set {}
    }
}

/// https://developer.apple.com/documentation/metal/mtlrenderpassdescriptor
open class MTLRenderPassDescriptor: NSObject {
    public override init() {}
    /// https://developer.apple.com/documentation/metal/mtlrenderpassdescriptor/colorattachments
    open var colorAttachments: MTLRenderPassColorAttachmentDescriptorArray { MTLRenderPassColorAttachmentDescriptorArray() }
}

/// https://developer.apple.com/documentation/metal/mtlprimitivetype
public enum MTLPrimitiveType: UInt, Sendable {
    /// https://developer.apple.com/documentation/metal/mtlprimitivetype/triangle
    case triangle = 3
}

/// https://developer.apple.com/documentation/metal/mtlcommandencoder
public protocol MTLCommandEncoder: NSObjectProtocol {
    /// https://developer.apple.com/documentation/metal/mtlcommandencoder/endencoding()
    func endEncoding()
}

/// https://developer.apple.com/documentation/metal/mtlrendercommandencoder
public protocol MTLRenderCommandEncoder: MTLCommandEncoder {
    /// https://developer.apple.com/documentation/metal/mtlrendercommandencoder/setrenderpipelinestate(_:)
    func setRenderPipelineState(_ pipelineState: any MTLRenderPipelineState)
    /// https://developer.apple.com/documentation/metal/mtlrendercommandencoder/setvertexbuffer(_:offset:index:)
    func setVertexBuffer(_ buffer: (any MTLBuffer)?, offset: Int, index: Int)
    /// https://developer.apple.com/documentation/metal/mtlrendercommandencoder/setfragmentbuffer(_:offset:index:)
    func setFragmentBuffer(_ buffer: (any MTLBuffer)?, offset: Int, index: Int)
    /// https://developer.apple.com/documentation/metal/mtlrendercommandencoder/setvertexbytes(_:length:index:)
    func setVertexBytes(_ bytes: UnsafeRawPointer, length: Int, index: Int)
    /// https://developer.apple.com/documentation/metal/mtlrendercommandencoder/setfragmentbytes(_:length:index:)
    func setFragmentBytes(_ bytes: UnsafeRawPointer, length: Int, index: Int)
    /// https://developer.apple.com/documentation/metal/mtlrendercommandencoder/setvertextexture(_:index:)
    func setVertexTexture(_ texture: (any MTLTexture)?, index: Int)
    /// https://developer.apple.com/documentation/metal/mtlrendercommandencoder/setfragmenttexture(_:index:)
    func setFragmentTexture(_ texture: (any MTLTexture)?, index: Int)
    /// https://developer.apple.com/documentation/metal/mtlrendercommandencoder/setvertexsamplerstate(_:index:)
    func setVertexSamplerState(_ sampler: (any MTLSamplerState)?, index: Int)
    /// https://developer.apple.com/documentation/metal/mtlrendercommandencoder/setfragmentsamplerstate(_:index:)
    func setFragmentSamplerState(_ sampler: (any MTLSamplerState)?, index: Int)
    /// https://developer.apple.com/documentation/metal/mtlrendercommandencoder/drawprimitives(type:vertexstart:vertexcount:)
    func drawPrimitives(type primitiveType: MTLPrimitiveType, vertexStart: Int, vertexCount: Int)
}
