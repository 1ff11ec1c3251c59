// ISO 8601 timestamps with a UTC offset, as scene files and `welkin sun` take them.

import Foundation

/// An instant with the UTC offset it was written in (the offset decides "that date" and how
/// times are printed).
public struct Timestamp: Equatable, Sendable, Codable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var unixSeconds: Double
    /// Offset from UTC in seconds (+02:00 → 7200).
    public var offsetSeconds: Int

    public init(unixSeconds: Double, offsetSeconds: Int) {
        self.unixSeconds = unixSeconds; self.offsetSeconds = offsetSeconds
    }

    /// Parses `YYYY-MM-DDTHH:MM[:SS[.fff]](Z|±HH:MM)`; nil if malformed or out of range.
    public static func parse(_ text: String) -> Timestamp? {
        let c = Array(text.utf8)
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= c.count else { return nil }
            var v = 0
            for k in 0..<n {
                let d = c[i + k]
                guard d >= 48 && d <= 57 else { return nil }
                v = v * 10 + Int(d - 48)
            }
            i += n
            return v
        }
        func expect(_ ch: Character) -> Bool {
            guard i < c.count, c[i] == ch.asciiValue! else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2),
              i < c.count, c[i] == UInt8(ascii: "T") || c[i] == UInt8(ascii: " ") else { return nil }
        i += 1
        guard let hour = digits(2), expect(":"), let minute = digits(2) else { return nil }
        var second = 0.0
        if expect(":") {
            guard let s = digits(2) else { return nil }
            second = Double(s)
            if expect(".") {
                var scale = 0.1
                var any = false
                while i < c.count, c[i] >= 48, c[i] <= 57 {
                    second += Double(c[i] - 48) * scale; scale /= 10; i += 1; any = true
                }
                guard any else { return nil }
            }
        }
        var offset = 0
        if expect("Z") || expect("z") {
            offset = 0
        } else if i < c.count, c[i] == UInt8(ascii: "+") || c[i] == UInt8(ascii: "-") {
            let sign = c[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let oh = digits(2) else { return nil }
            _ = expect(":")
            guard let om = digits(2), oh <= 18, om < 60 else { return nil }
            offset = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == c.count, (1...12).contains(month), day >= 1, day <= daysInMonth(year, month),
              hour <= 23, minute <= 59, second < 61 else { return nil }
        let days = daysFromCivil(year, month, day)
        let local = Double(days) * 86400 + Double(hour * 3600 + minute * 60) + second
        return Timestamp(unixSeconds: local - Double(offset), offsetSeconds: offset)
    }

    /// The same instant written in this timestamp's offset, to the second.
    public var description: String {
        let local = (unixSeconds + Double(offsetSeconds)).rounded()
        let days = Int((local / 86400).rounded(.down))
        let secondsOfDay = Int(local - Double(days) * 86400)
        let (y, m, d) = Self.civilFromDays(days)
        let sign = offsetSeconds < 0 ? "-" : "+"
        let o = abs(offsetSeconds)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let yearText = String(format: "%04d", y)
        return "\(yearText)-\(two(m))-\(two(d))T\(two(secondsOfDay / 3600)):\(two(secondsOfDay / 60 % 60)):\(two(secondsOfDay % 60))"
            + (offsetSeconds == 0 ? "Z" : "\(sign)\(two(o / 3600)):\(two(o / 60 % 60))")
    }

    /// Julian Day (UT; ΔT is ignored, as NOAA's calculator does).
    public var julianDay: Double { unixSeconds / 86400 + 2440587.5 }

    /// Days since the Unix epoch of the local calendar date at this instant.
    public var localDayNumber: Int { Int(((unixSeconds + Double(offsetSeconds)) / 86400).rounded(.down)) }

    public func adding(seconds: Double) -> Timestamp {
        Timestamp(unixSeconds: unixSeconds + seconds, offsetSeconds: offsetSeconds)
    }

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    static func daysInMonth(_ y: Int, _ m: Int) -> Int {
        [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static package func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp + (mp < 10 ? 3 : -9)
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
