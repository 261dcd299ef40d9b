//! GOAL comments stripped in one pass, as a search strips them.
//! (These tests were inside `src/import/goal.rs`: here they share the one build
//! of the library the integration tests use.)

use commcheck::import::goal::strip_comments;

/// The reading by repeated search for the earliest `//` or `/*` (and,
/// in a comment, `*/`): the obvious one, quadratic on a line of many
/// comments.
fn by_search(line: &str, in_comment: &mut bool) -> String {
    let mut out = String::new();
    let mut rest = line;
    loop {
        if *in_comment {
            match rest.find("*/") {
                Some(end) => {
                    rest = &rest[end + 2..];
                    *in_comment = false;
                }
                None => return out,
            }
        }
        match (rest.find("//"), rest.find("/*")) {
            (Some(l), b) if b.is_none_or(|b| l < b) => return out + &rest[..l],
            (_, Some(b)) => {
                out = out + &rest[..b] + " ";
                rest = &rest[b + 2..];
                *in_comment = true;
            }
            _ => return out + rest,
        }
    }
}

/// Every line of up to 8 characters of `/`, `*`, `a` and space, in a
/// comment or not, is stripped as the search strips it.
#[test]
fn one_pass_strips_as_the_search_does() {
    let alphabet = ['/', '*', 'a', ' '];
    let mut lines = 0;
    for len in 0..=8u32 {
        for code in 0..4usize.pow(len) {
            let line: String = (0..len)
                .map(|k| alphabet[code / 4usize.pow(k) % 4])
                .collect();
            for open in [false, true] {
                let (mut a, mut b) = (open, open);
                assert_eq!(
                    strip_comments(&line, &mut a),
                    by_search(&line, &mut b),
                    "{line:?}, in a comment: {open}"
                );
                assert_eq!(a, b, "{line:?}, in a comment: {open}");
                lines += 1;
            }
        }
    }
    assert!(lines > 100_000);
}
