// The data files WelkinAstronomy ships (Data/*.bin, Data/README.md), found among the run-time files
// (beside a built executable, or in an install's share/welkin) and parsed once.

import Foundation
import WelkinResources

/// `name` among WelkinAstronomy's run-time files (RuntimeFiles.contents: Welkin's reads the file,
/// a package's inflates it from its bundle), parsed by `parse`: its own error as it is, or `missing`
/// with why the file could not be found or read.
func loadShipped<T, E: Error>(_ name: String, parse: (Data) throws -> T, missing: (String) -> E) -> Result<T, E> {
    let data: Data
    do { data = try RuntimeFiles.contents(of: name, target: "WelkinAstronomy") } catch {
        return .failure(missing("\(error)"))
    }
    do {
        return .success(try parse(data))
    } catch let e as E {
        return .failure(e)
    } catch {
        return .failure(missing("\(name): \(error.localizedDescription)"))
    }
}
