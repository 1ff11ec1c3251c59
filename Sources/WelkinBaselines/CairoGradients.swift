// cairo drawing Welkin's gradients: the outside baseline the CPU reference is checked and timed
// against (`welkin bench` and the reference tests use the same code).

import CCairo
import WelkinCore
import WelkinImage

public enum CairoBaseline {
    /// Paints a linear or radial gradient over a whole ARGB32 surface, as `Gradient` defines it.
    public static func paint(_ g: Gradient, width: Int, height: Int, surface: OpaquePointer) {
        let pattern: OpaquePointer
        switch g.shape {
        case .linear(let s, let e):
            pattern = cairo_pattern_create_linear(s.x * Double(width), s.y * Double(height),
                                                  e.x * Double(width), e.y * Double(height))
        case .radial(let c, let r0, let r1):
            let cx = c.x * Double(width), cy = c.y * Double(height)
            pattern = cairo_pattern_create_radial(cx, cy, r0, cx, cy, r1)
        default:
            preconditionFailure("the cairo baseline draws linear and radial gradients only")
        }
        for stop in g.stops {
            cairo_pattern_add_color_stop_rgba(pattern, stop.location, stop.color.r, stop.color.g, stop.color.b, stop.color.a)
        }
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        let cr = cairo_create(surface)
        cairo_set_source(cr, pattern)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_pattern_destroy(pattern)
        cairo_surface_flush(surface)
    }

    /// An ARGB32 surface of the given size; destroy it with `cairo_surface_destroy`.
    public static func makeSurface(width: Int, height: Int) -> OpaquePointer {
        cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
    }

    /// The surface's pixels as a straight-alpha RGBA8 Image (cairo stores premultiplied ARGB32).
    public static func image(of surface: OpaquePointer) -> Image {
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        var image = Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let v = (data + y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
                let a = Int(v >> 24)
                func straight(_ c: Int) -> UInt8 { a == 0 ? 0 : UInt8(min(255, (c * 255 + a / 2) / a)) }
                image[x, y] = SIMD4(straight(Int((v >> 16) & 0xFF)), straight(Int((v >> 8) & 0xFF)), straight(Int(v & 0xFF)), UInt8(a))
            }
        }
        return image
    }

    /// A gradient drawn by cairo, as an Image.
    public static func render(_ g: Gradient, width: Int, height: Int) -> Image {
        let surface = makeSurface(width: width, height: height)
        defer { cairo_surface_destroy(surface) }
        paint(g, width: width, height: height, surface: surface)
        return image(of: surface)
    }
}
