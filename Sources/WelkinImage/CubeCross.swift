// A cube map's six faces in one image: the horizontal cross, 4N × 3N, empty cells transparent.
//
//         +y
//     −x  +z  +x  −z
//         −y
//
// With the faces in OpenGL's convention (CubeFace) every shared edge meets its neighbour's.

/// Where each face (in +x, −x, +y, −y, +z, −z order) sits in the cross, in face-sized cells.
public let cubeCrossCells: [SIMD2<Int>] = [SIMD2(2, 1), SIMD2(0, 1), SIMD2(1, 0), SIMD2(1, 2), SIMD2(1, 1), SIMD2(3, 1)]

/// Copies square `faces` (+x, −x, +y, −y, +z, −z) of `side` pixels into a 4·side × 3·side buffer.
func cubeCross<P>(_ faces: [[P]], side: Int, empty: P, components: Int) -> [P] {
    precondition(faces.count == 6 && faces.allSatisfy { $0.count == side * side * components }, "six square faces")
    let width = 4 * side
    var out = [P](repeating: empty, count: width * 3 * side * components)
    for (face, cell) in zip(faces, cubeCrossCells) {
        for y in 0..<side {
            let source = y * side * components
            let target = ((cell.y * side + y) * width + cell.x * side) * components
            out.replaceSubrange(target..<target + side * components, with: face[source..<source + side * components])
        }
    }
    return out
}

extension Image {
    /// The faces (+x, −x, +y, −y, +z, −z; square, one size) as a horizontal cross.
    public static func cubeCross(_ faces: [Image]) -> Image {
        let side = faces[0].width
        return Image(width: 4 * side, height: 3 * side, pixels: WelkinImage.cubeCross(faces.map(\.pixels), side: side, empty: 0, components: 4))
    }
}

extension FloatImage {
    /// The faces (+x, −x, +y, −y, +z, −z; square, one size) as a horizontal cross.
    public static func cubeCross(_ faces: [FloatImage]) -> FloatImage {
        let side = faces[0].width
        return FloatImage(width: 4 * side, height: 3 * side, pixels: WelkinImage.cubeCross(faces.map(\.pixels), side: side, empty: .zero, components: 1))
    }
}

extension Image16 {
    /// The faces (+x, −x, +y, −y, +z, −z; square, one size) as a horizontal cross.
    public static func cubeCross(_ faces: [Image16]) -> Image16 {
        let side = faces[0].width
        return Image16(width: 4 * side, height: 3 * side, pixels: WelkinImage.cubeCross(faces.map(\.pixels), side: side, empty: 0, components: 4))
    }
}
