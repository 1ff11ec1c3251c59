import Foundation
import XCTest

/// README.md is the front door (issue #27): short, and its tables generated from what they describe.
/// - at most 250 lines;
/// - its commands table lists exactly the commands `welkin help` lists, with `welkin help`'s summaries;
/// - its module table lists the package's targets with exactly the dependencies Package.swift declares;
/// - every relative link and image in README.md and docs/*.md points at a file that exists (and, for a
///   link into a Markdown file with a `#fragment`, at a heading that exists there).
final class ReadmeTests: XCTestCase {
    static let repository = EndToEndTests.repository

    func text(_ path: String) throws -> String {
        try String(contentsOf: Self.repository.appendingPathComponent(path), encoding: .utf8)
    }

    // MARK: - Reading Markdown

    /// The lines of the section that starts with `heading` (a whole line), up to the next heading of
    /// the same or a higher level.
    func section(_ heading: String, of markdown: String) -> [Substring] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == heading }) else { return [] }
        let level = heading.prefix(while: { $0 == "#" }).count
        var end = start + 1
        while end < lines.count {
            let hashes = lines[end].prefix(while: { $0 == "#" }).count
            if hashes > 0, hashes <= level, lines[end].dropFirst(hashes).hasPrefix(" ") { break }
            end += 1
        }
        return Array(lines[(start + 1)..<end])
    }

    /// The body rows of the first table in `lines` whose header's first cell is `firstHeader`, as cells.
    func table(_ firstHeader: String, in lines: [Substring]) -> [[String]] {
        func cells(_ line: Substring) -> [String] {
            var parts = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            if parts.first == "" { parts.removeFirst() }
            if parts.last == "" { parts.removeLast() }
            return parts
        }
        guard let header = lines.firstIndex(where: { $0.hasPrefix("|") && cells($0).first == firstHeader }) else { return [] }
        var rows: [[String]] = []
        var i = header + 2  // past the header and its |---| line
        while i < lines.count, lines[i].hasPrefix("|") {
            rows.append(cells(lines[i]))
            i += 1
        }
        return rows
    }

    /// The names written in backticks in `cell` (`` `a`, `b` `` → ["a", "b"]).
    func codeSpans(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    // MARK: - (1) length

    func testReadmeIsShort() throws {
        let lines = try text("README.md").split(separator: "\n", omittingEmptySubsequences: false)
        let count = lines.last == "" ? lines.count - 1 : lines.count
        XCTAssertLessThanOrEqual(count, 250, "README.md is the front door: at most 250 lines (move details to docs/)")
    }

    // MARK: - (2) the commands table against `welkin help`

    /// `welkin help`'s command list: name → summary, in its order.
    func helpCommands() throws -> [(name: String, summary: String)] {
        let r = try EndToEndTests.run(["help"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "Commands:") else {
            XCTFail("no 'Commands:' line in welkin help:\n\(r.stdout)")
            return []
        }
        var commands: [(String, String)] = []
        for line in lines[(start + 1)...] {
            guard line.hasPrefix("  ") else { break }
            let trimmed = line.drop(while: { $0 == " " })
            let name = trimmed.prefix(while: { $0 != " " })
            let summary = trimmed.dropFirst(name.count).drop(while: { $0 == " " })
            commands.append((String(name), String(summary)))
        }
        return commands
    }

    func testCommandsTableMatchesWelkinHelp() throws {
        let help = try helpCommands()
        XCTAssertGreaterThan(help.count, 10, "welkin help listed too few commands")
        let rows = table("command", in: section("## The command line", of: try text("README.md")))
        XCTAssertFalse(rows.isEmpty, "README.md: no '| command | … |' table under '## The command line'")
        let readme = rows.map { (name: codeSpans($0[0]).first ?? $0[0], summary: $0.count > 1 ? $0[1] : "") }
        let helpNames = help.map(\.name), readmeNames = readme.map(\.name)
        XCTAssertEqual(Set(helpNames).subtracting(readmeNames), [],
                       "commands `welkin help` lists that README's commands table lacks")
        XCTAssertEqual(Set(readmeNames).subtracting(helpNames), [],
                       "commands in README's commands table that `welkin help` does not list")
        XCTAssertEqual(readmeNames, helpNames, "README's commands table is not in `welkin help`'s order")
        let summaries = Dictionary(help.map { ($0.name, $0.summary) }, uniquingKeysWith: { a, _ in a })
        for row in readme where summaries[row.name] != nil {
            XCTAssertEqual(row.summary, summaries[row.name], "README's summary of `\(row.name)` differs from `welkin help`'s")
        }
    }

    // MARK: - (3) the module table against Package.swift

    struct Target { var name: String; var kind: String; var path: String?; var dependencies: [String] }

    /// The targets Package.swift declares, with their `dependencies:` and `path:` (comments removed).
    func packageTargets() throws -> [Target] {
        let source = try text("Package.swift").split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            // Package.swift's strings hold no "//", so a comment is everything after it.
            if let range = line.range(of: "//") { return line[..<range.lowerBound] }
            return line
        }.joined(separator: "\n")
        let start = try NSRegularExpression(pattern: #"\.(target|executableTarget|systemLibrary|testTarget|binaryTarget|plugin|macro)\(\s*name:\s*"([^"]+)""#)
        let ns = source as NSString
        let matches = start.matches(in: source, range: NSRange(location: 0, length: ns.length))
        let quoted = try NSRegularExpression(pattern: #""([^"]*)""#)
        var targets: [Target] = []
        for (i, match) in matches.enumerated() {
            let end = i + 1 < matches.count ? matches[i + 1].range.location : ns.length
            let body = ns.substring(with: NSRange(location: match.range.location, length: end - match.range.location))
            var dependencies: [String] = []
            if let open = body.range(of: "dependencies:") {
                let rest = body[open.upperBound...]
                if let bracket = rest.firstIndex(of: "["), let close = rest[bracket...].firstIndex(of: "]") {
                    let list = String(rest[bracket...close])
                    dependencies = quoted.matches(in: list, range: NSRange(location: 0, length: (list as NSString).length))
                        .map { (list as NSString).substring(with: $0.range(at: 1)) }
                }
            }
            var path: String?
            if let p = try NSRegularExpression(pattern: #"path:\s*"([^"]*)""#)
                .firstMatch(in: body, range: NSRange(location: 0, length: (body as NSString).length)) {
                path = (body as NSString).substring(with: p.range(at: 1))
            }
            targets.append(Target(name: ns.substring(with: match.range(at: 2)), kind: ns.substring(with: match.range(at: 1)),
                                  path: path, dependencies: dependencies))
        }
        return targets
    }

    /// The rule for README's module table: every target of Package.swift except test code — `.testTarget`s,
    /// and the helper targets whose sources live under Tests/ (WelkinTestSupport, WelkinSkyCheck). Each has a
    /// row of its own whose last cell lists exactly its declared dependencies ("—" for none); system
    /// libraries, which declare none, may share one row.
    func testModuleTableMatchesPackageSwift() throws {
        let all = try packageTargets()
        XCTAssertTrue(all.contains { $0.name == "WelkinCore" } && all.contains { $0.name == "welkin" },
                      "could not read the targets of Package.swift: \(all.map(\.name))")
        let documented = all.filter { $0.kind != "testTarget" && !($0.path ?? "").hasPrefix("Tests/") }
        let rows = table("target", in: section("## How it is built", of: try text("README.md")))
        XCTAssertFalse(rows.isEmpty, "README.md: no '| target | … |' table under '## How it is built'")
        var readme: [String: Set<String>] = [:]
        for row in rows {
            let names = codeSpans(row[0])
            XCTAssertFalse(names.isEmpty, "README's module table: a row names no target in backticks: \(row)")
            let last = row.last ?? ""
            let dependencies = last == "—" || last == "" ? [] :
                last.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "") }
            for name in names {
                XCTAssertNil(readme[name], "README's module table names `\(name)` twice")
                readme[name] = Set(dependencies)
                if names.count > 1, let target = all.first(where: { $0.name == name }) {
                    XCTAssertEqual(target.kind, "systemLibrary", "only system libraries share a row; `\(name)` needs its own")
                }
            }
        }
        for target in documented {
            guard let listed = readme[target.name] else {
                XCTFail("README's module table lacks Package.swift's target `\(target.name)`")
                continue
            }
            XCTAssertEqual(listed, Set(target.dependencies),
                           "README's module table: `\(target.name)` should depend on \(target.dependencies) as Package.swift declares")
        }
        let names = Set(documented.map(\.name))
        for name in readme.keys where !names.contains(name) {
            XCTFail("README's module table names `\(name)`, which is not a (non-test) target of Package.swift")
        }
    }

    // MARK: - (4) relative links and images

    /// GitHub's anchor for a heading: lower case, punctuation but hyphens dropped, spaces to hyphens.
    func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { c -> Character? in
            if c == " " { return "-" }
            if c == "-" || c == "_" || c.isLetter || c.isNumber { return c }
            return nil
        })
    }

    /// The anchors of a Markdown file's headings (outside code fences), with GitHub's -1, -2 for repeats.
    func anchors(of markdown: String) -> Set<String> {
        var result: Set<String> = [], seen: [String: Int] = [:], fenced = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle(); continue }
            guard !fenced, line.hasPrefix("#") else { continue }
            let title = line.drop(while: { $0 == "#" })
            guard title.hasPrefix(" ") else { continue }
            let base = anchor(title.trimmingCharacters(in: .whitespaces))
            let n = seen[base, default: 0]
            seen[base] = n + 1
            result.insert(n == 0 ? base : "\(base)-\(n)")
        }
        return result
    }

    /// The link and image targets of a Markdown text, code fences and inline code left out.
    func links(in markdown: String) throws -> [String] {
        var prose: [Substring] = [], fenced = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle(); continue }
            if !fenced { prose.append(line) }
        }
        var text = prose.joined(separator: "\n")
        text = text.replacingOccurrences(of: "`[^`\n]*`", with: "", options: .regularExpression)
        let link = try NSRegularExpression(pattern: #"\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)"#)
        return link.matches(in: text, range: NSRange(location: 0, length: (text as NSString).length))
            .map { (text as NSString).substring(with: $0.range(at: 1)) }
    }

    func testRelativeLinksAndImagesResolve() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Self.repository.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        XCTAssertTrue(docs.contains("docs/sky.md"), "\(docs)")
        var checked = 0
        for file in ["README.md"] + docs {
            let markdown = try text(file)
            let folder = Self.repository.appendingPathComponent(file).deletingLastPathComponent()
            for target in try links(in: markdown) {
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0]), fragment = parts.count > 1 ? String(parts[1]) : nil
                let url = path.isEmpty ? Self.repository.appendingPathComponent(file)
                                       : folder.appendingPathComponent(path.removingPercentEncoding ?? path).standardizedFileURL
                checked += 1
                guard FileManager.default.fileExists(atPath: url.path) else {
                    XCTFail("\(file): the link \(target) points at no file (\(url.path))")
                    continue
                }
                if let fragment, url.pathExtension == "md" {
                    let headings = anchors(of: try String(contentsOf: url, encoding: .utf8))
                    XCTAssertTrue(headings.contains(fragment), "\(file): the link \(target) names no heading of \(url.lastPathComponent)")
                }
            }
        }
        XCTAssertGreaterThan(checked, 50, "too few relative links found: is the link pattern right?")
    }

    /// docs/gallery.md (`make gallery`) shows every example scene the tests compare, each with its
    /// picture, and nothing else: a new example without a picture fails here.
    func testTheGalleryShowsEveryExample() throws {
        let gallery = try text("docs/gallery.md")
        let listed = gallery.components(separatedBy: "](../Scenes/").dropFirst().map { String($0.prefix { $0 != ")" }) }
        XCTAssertEqual(listed.sorted(), try EndToEndTests.exampleFiles().sorted(), "run `make gallery`")
        for scene in listed {
            let picture = "docs/images/gallery/" + scene.replacingOccurrences(of: "/", with: "-").dropLast(5) + ".jpg"
            XCTAssertTrue(gallery.contains("](images/gallery/" + picture.dropFirst("docs/images/gallery/".count) + ")"), scene)
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.repository.appendingPathComponent(picture).path), picture)
        }
    }
}
