import XCTest
@testable import WelkinViewer

/// Where the viewer puts the picture (#40): the scene's own aspect, as large as fits, centred.
final class PictureRectTests: XCTestCase {
    func testAPhoneSceneIsLetterboxedAndAWideOneFitsBesideThePanel() {
        // 390×844 in the 880×900 a 1280×900 window leaves beside the panel: 416×900 from x = 232.
        XCTAssertEqual(PictureRect.fitting(SIMD2(390, 844), in: SIMD2(880, 900)), PictureRect(origin: SIMD2(232, 0), size: SIMD2(416, 900)))
        // 1280×720 in 880×720: 880×495 from y = 112.
        XCTAssertEqual(PictureRect.fitting(SIMD2(1280, 720), in: SIMD2(880, 720)), PictureRect(origin: SIMD2(0, 112), size: SIMD2(880, 495)))
        // The window at the scene's size: the whole window; twice as large: scaled up, not re-framed.
        XCTAssertEqual(PictureRect.fitting(SIMD2(390, 844), in: SIMD2(390, 844)), PictureRect(origin: .zero, size: SIMD2(390, 844)))
        XCTAssertEqual(PictureRect.fitting(SIMD2(390, 844), in: SIMD2(780, 1688)), PictureRect(origin: .zero, size: SIMD2(780, 1688)))
    }

    func testUnscaledPicturesAreCentredOrClippedAndNothingIsEmpty() {
        // A picture drawn before the window shrank: at the top left, clipped by the caller.
        XCTAssertEqual(PictureRect.fitting(SIMD2(500, 500), in: SIMD2(400, 600), scaling: false), PictureRect(origin: SIMD2(0, 50), size: SIMD2(500, 500)))
        XCTAssertEqual(PictureRect.fitting(SIMD2(100, 50), in: SIMD2(300, 150), scaling: false), PictureRect(origin: SIMD2(100, 50), size: SIMD2(100, 50)))
        // A sliver of a window still gets a pixel, and an empty scene the area.
        XCTAssertEqual(PictureRect.fitting(SIMD2(1000, 10), in: SIMD2(10, 10)).size, SIMD2(10, 1))
        XCTAssertEqual(PictureRect.fitting(SIMD2(0, 0), in: SIMD2(20, 10)), PictureRect(origin: .zero, size: SIMD2(20, 10)))
        let rect = PictureRect(origin: SIMD2(232, 0), size: SIMD2(416, 900))
        XCTAssertTrue(rect.contains(SIMD2(232, 0)))
        XCTAssertFalse(rect.contains(SIMD2(231.5, 10)))
        XCTAssertFalse(rect.contains(SIMD2(648, 10)))
    }
}
