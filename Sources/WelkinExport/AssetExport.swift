// Assets: the image files exported code loads by name (emitter cells' `image` sprites), to be
// written beside it — next to the .swift file of a single-file export, in the target's resources of
// a package (where the code loads them from `Bundle.module`). Shader channels' PNGs are not among
// them: no single file draws a shader layer, and a package's tracks hold the texels Welkin sampled.

import Foundation
import WelkinCore

extension CodeExport {
    /// An image the code loads by its base name.
    public struct Asset: Sendable, Equatable {
        /// The file name written beside the code (`spark.png`); the code asks for `spark`.
        public var name: String
        /// Where Welkin read it (the scene's path, resolved against the scene's folder).
        public var source: String
    }
}

enum AssetExport {
    /// Every image sprite of `scene`'s emitters, in groups and masks too, once each, in layer order.
    static func images(_ scene: Scene) -> [CodeExport.Asset] {
        var assets: [CodeExport.Asset] = []
        func visit(_ layer: Layer) {
            if let e = layer.content as? EmitterLayer {
                for cell in e.cells where cell.sprite == .image {
                    guard let path = cell.imagePath, !assets.contains(where: { $0.source == path }) else { continue }
                    assets.append(CodeExport.Asset(name: URL(fileURLWithPath: path).lastPathComponent, source: path))
                }
            } else if let g = layer.content as? GroupLayer {
                g.layers.forEach(visit)
                g.mask.map(visit)
            }
        }
        scene.layers.forEach(visit)
        return assets
    }

    /// The header's sentence naming the images (nil without any).
    static func headerNote(_ assets: [CodeExport.Asset], inPackage: Bool) -> String? {
        guard !assets.isEmpty else { return nil }
        let names = assets.map(\.name).joined(separator: ", ")
        return inPackage
            ? "Images, in the package's Resources/Images (loaded from Bundle.module): \(names)."
            : "Images, written beside this file by welkin export-code -o: \(names). Add them to your app's asset catalog or bundle; the code loads each by its name without .png."
    }

    /// The package's copy of `source` loads its images from the package's bundle, not the app's.
    static func loadingFromModule(_ source: String, _ assets: [CodeExport.Asset]) -> String {
        var s = source.replacingOccurrences(of: "private let welkinImageBundle: Bundle? = nil",
                                            with: "private let welkinImageBundle: Bundle? = .module")
        for asset in assets {
            let name = SwiftLiteral.string(URL(fileURLWithPath: asset.name).deletingPathExtension().lastPathComponent)
            s = s.replacingOccurrences(of: "UIImage(named: \(name))", with: "UIImage(named: \(name), in: .module, with: nil)")
            s = s.replacingOccurrences(of: "NSImage(named: \(name))", with: "Bundle.module.image(forResource: \(name))")
        }
        return s
    }
}
