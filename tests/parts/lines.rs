//! The readers' line index agrees with counting newlines.
//! (These tests were inside `src/import/mod.rs`: here they share the one build
//! of the library the integration tests use.)

/// The line index agrees with counting newlines, at every offset.
#[test]
fn lines_find_what_counting_finds() {
    let text = "a\n\nbc\nd";
    let lines = commcheck::import::Lines::new(text);
    for offset in 0..=text.len() {
        assert_eq!(
            lines.line(offset),
            commcheck::import::line_column(text, offset).0,
            "{offset}"
        );
    }
}
