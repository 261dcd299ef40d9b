//! A real browser on the Explorer. Headless Chromium loads the start page
//! of `check naive-tree 3 --explore`, follows the link of the violated
//! property, and the test finds, in the DOM the browser rendered, the
//! cube's SVG with the contended arc in red and the state told in words.
//! The screenshot is kept as a test artifact under target/ (never in git).
//!
//! Chromium is Debian's `chromium` (`.ci/run` installs it); `CHROMIUM`
//! names another binary.

use crate::explorer::serve;
use std::path::PathBuf;
use std::process::Command;

/// The browser, or a failure that says how to get one.
fn chromium() -> PathBuf {
    let path = PathBuf::from(std::env::var("CHROMIUM").unwrap_or("/usr/bin/chromium".into()));
    assert!(
        path.exists(),
        "{} not found: install Debian's chromium (`apt-get install chromium`, as .ci/run does) \
         or set CHROMIUM",
        path.display()
    );
    path
}

/// Loads `url` headless until its scripts settle; returns the DOM, and
/// saves a screenshot to `shot` if given.
fn load(url: &str, shot: Option<&PathBuf>) -> String {
    let profile = tempdir("profile");
    let mut cmd = Command::new(chromium());
    cmd.args([
        "--headless",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        // The page polls its server: let its requests finish first.
        "--virtual-time-budget=5000",
        "--window-size=1400,1100",
    ]);
    // Chromium refuses its sandbox to root (CI runs as root).
    if is_root() {
        cmd.arg("--no-sandbox");
    }
    cmd.arg(format!("--user-data-dir={}", profile.display()));
    if let Some(shot) = shot {
        cmd.arg(format!("--screenshot={}", shot.display()));
    } else {
        cmd.arg("--dump-dom");
    }
    let out = cmd.arg(url).output().expect("chromium runs");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&profile);
    String::from_utf8(out.stdout).expect("UTF-8 DOM")
}

/// True when the test runs as root (from /proc, without a libc binding).
fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .map(|s| {
            s.lines()
                .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"))
        })
        .unwrap_or(false)
}

/// A fresh directory under the test's own target directory.
fn tempdir(what: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("browser-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_browser_follows_the_discovery_to_the_contended_arc() {
    let (_server, addr) = serve(&["naive-tree", "3"]);
    // The start page: the violated property is a link.
    let start = load(&format!("http://{addr}/"), None);
    let link = start
        .split("<a ")
        .find(|a| a.contains("Always contention-freedom"))
        .expect("contention-freedom is listed");
    let href = link
        .split("href=\"")
        .nth(1)
        .and_then(|h| h.split('"').next())
        .expect("the violated property links its discovery");
    assert_eq!(href, "#/steps/0/0", "{link}");
    // Follow it.
    let url = format!("http://{addr}/{href}");
    let dom = load(&url, None);
    assert!(dom.contains("<svg"), "the picture is in the DOM");
    let contended = dom
        .split('<')
        .find(|e| e.contains("class=\"contended\""))
        .expect("the contended arc is drawn");
    assert!(contended.contains("stroke=\"red\""), "{contended}");
    assert!(
        dom.contains("contended in step 1: arc 000-&gt;100"),
        "{dom}"
    );
    assert!(
        dom.contains("contention-freedom: step 1: arc 000-&gt;100 used by worm"),
        "the state pane tells it in words"
    );
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("explorer-naive-tree-3.png");
    let _ = std::fs::remove_file(&shot);
    load(&url, Some(&shot));
    let png = std::fs::read(&shot).expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
    eprintln!("screenshot: {}", shot.display());
}
