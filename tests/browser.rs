//! A real browser on the Explorer. Headless Chromium loads the start page
//! of `check naive-tree 3 --explore`, follows the link of the violated
//! property, and the test finds, in the DOM the browser rendered, the
//! cube's SVG with the contended arc in red and the state told in words.
//! The screenshot is kept as a test artifact under target/ (never in git).
//! A second test loads pictures (a mesh-bus gossip, cubes, meshes) in one
//! page whose script writes each text's rendered box into the DOM, and
//! checks that no two texts of a picture overlap.
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

/// A fresh directory under the test's own target directory, one per call
/// (tests run side by side, and a browser profile is one browser's).
fn tempdir(what: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("browser-{what}-{}-{k}", std::process::id()));
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

/// A text's box as the browser drew it: its text, then left, top, right
/// and bottom in pixels.
type TextBox = (String, f64, f64, f64, f64);

/// The picture `check <args> --svg FILE --slot <slot>` draws.
fn picture(args: &[&str], slot: u32) -> String {
    let name = args.join("_").replace(['/', ':', '.'], "-");
    let file = tempdir("pictures").join(format!("{name}-{slot}.svg"));
    let slot = slot.to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_check"))
        .args(args)
        .args(["--svg", file.to_str().unwrap(), "--slot", &slot])
        .output()
        .expect("check runs");
    assert!(
        file.exists(),
        "check {args:?} --svg: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(&file).unwrap()
}

/// Loads `pictures` (name, SVG) in one page in headless Chromium, where a
/// small script writes the rendered box of every `<text>` of each picture
/// (`getBoundingClientRect`) and of the picture itself into the DOM;
/// returns, per picture, its box and its texts' boxes.
fn rendered(pictures: &[(String, String)]) -> Vec<(String, TextBox, Vec<TextBox>)> {
    let mut page = String::from("<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>");
    for (name, svg) in pictures {
        page += &format!("<div class='picture' data-name='{name}'>{svg}</div>");
    }
    page += "<pre id='boxes'></pre><script>
        const box = (e) => { const b = e.getBoundingClientRect();
            return [e.textContent, b.left, b.top, b.right, b.bottom]; };
        const out = [...document.querySelectorAll('div.picture')].map((d) => {
            const svg = d.querySelector('svg');
            return [d.dataset.name, box(svg), [...svg.querySelectorAll('text')].map(box)];
        });
        document.getElementById('boxes').textContent = JSON.stringify(out);
        </script></body></html>";
    let file = tempdir("overlap").join("pictures.html");
    std::fs::write(&file, page).unwrap();
    let dom = load(&format!("file://{}", file.display()), None);
    let json = dom
        .split("<pre id=\"boxes\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .expect("the script wrote the boxes");
    let json = json
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&json).expect("boxes as JSON")
}

/// Two boxes that share more than half a pixel each way.
fn overlap(a: &TextBox, b: &TextBox) -> bool {
    let slack = 0.5;
    a.1 + slack < b.3 && b.1 + slack < a.3 && a.2 + slack < b.4 && b.2 + slack < a.4
}

/// No two texts of a picture overlap, and none leaves the picture, as
/// headless Chromium renders them: every slot of SIMPLE's gossip on the
/// 4x4 mesh-bus with l = 2 (node labels, token counts, the bus writes and
/// their tokens), pictures of cubes (NOB on Q4, MNB's counts on Q3,
/// naive-tree's contention, flood's observed duplicates), of a mesh and
/// a torus, and a schedule's on machines (the DGX-1 with its PCIe tree,
/// two DGX H100 with their NICs and switch, a torus of NPUs). The
/// captions count in the task's own words.
#[test]
fn no_two_texts_of_a_picture_overlap_in_a_browser() {
    let mut pictures = Vec::new();
    const RING: &str = "examples/schedules/allreduce_ring_8_both_ways.xml";
    let runs: [(&[&str], u32); 12] = [
        (&["simple", "4", "--ell", "2"], 7),
        (&["nob", "4"], 3),
        (&["mnb", "3"], 3),
        (&["naive-tree", "3"], 1),
        (&["flood", "3"], 2),
        (&["mesh-sf", "4x4"], 3),
        (&["mesh-flood", "5x5", "--torus"], 3),
        (&["recursive-doubling", "5x3"], 3),
        (&["scatter", "3"], 2),
        (
            &["schedule", RING, "--switching", "wh", "--network", "dgx1"],
            2,
        ),
        (
            &[
                "schedule",
                RING,
                "--switching",
                "wh",
                "--network",
                "dgx-h100:2",
            ],
            1,
        ),
        (
            &[
                "schedule",
                RING,
                "--switching",
                "wh",
                "--network",
                "npu-torus:4x2",
            ],
            1,
        ),
    ];
    for (args, slots) in runs {
        for slot in 1..=slots {
            pictures.push((
                format!("{} slot {slot}", args.join(" ")),
                picture(args, slot),
            ));
        }
    }
    let caption = |name: &str| -> String {
        let (_, svg) = pictures.iter().find(|(n, _)| n == name).expect(name);
        let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
        let caption = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("caption"))
            .and_then(|n| n.text())
            .expect("a caption");
        caption.to_string()
    };
    for (name, words) in [
        // A gossip counts the nodes holding every token, a broadcast the
        // nodes informed (or holding every packet), a personalised task
        // the packets delivered.
        (
            "simple 4 --ell 2 slot 7",
            "16 of 16 nodes hold all 16 tokens",
        ),
        ("nob 4 slot 1", "of 16 nodes informed"),
        ("mnb 3 slot 3", "8 of 8 nodes hold all 8 packets"),
        ("scatter 3 slot 1", "of 7 packets delivered"),
        // A schedule on a machine counts its ranks, not the switches or
        // the GPUs it leaves idle.
        (
            &format!("schedule {RING} --switching wh --network dgx-h100:2 slot 1"),
            "0 of 8 ranks hold every chunk they must",
        ),
    ] {
        let caption = caption(name);
        assert!(caption.contains(words), "{name}: {caption}");
    }
    // A control: the measure sees an overlap where there is one (a count
    // written over a token, as the mesh-bus picture once did).
    pictures.push((
        "control".to_string(),
        "<svg xmlns='http://www.w3.org/2000/svg' width='100' height='40' \
         font-family='monospace' font-size='11'><text x='10' y='20'>4/16</text>\
         <text x='14' y='22'>t(1,1)</text><text x='10' y='35'>apart</text></svg>"
            .to_string(),
    ));
    let mut crowded = Vec::new();
    let mut boxes = rendered(&pictures);
    let control = boxes.pop().expect("the control rendered");
    assert!(overlap(&control.2[0], &control.2[1]), "{control:?}");
    assert!(!overlap(&control.2[0], &control.2[2]), "{control:?}");
    pictures.pop();
    assert_eq!(boxes.len(), pictures.len(), "every picture rendered");
    for (name, frame, texts) in &boxes {
        assert!(texts.len() > 4, "{name}: its texts are drawn");
        assert!(frame.3 > frame.1 && frame.4 > frame.2, "{name}: drawn");
        for (i, a) in texts.iter().enumerate() {
            for b in &texts[i + 1..] {
                if overlap(a, b) {
                    crowded.push(format!("{name}: {a:?} overlaps {b:?}"));
                }
            }
            let inside = a.1 >= frame.1 - 0.5
                && a.3 <= frame.3 + 0.5
                && a.2 >= frame.2 - 0.5
                && a.4 <= frame.4 + 0.5;
            if !inside {
                crowded.push(format!("{name}: {a:?} leaves the picture {frame:?}"));
            }
        }
    }
    assert!(crowded.is_empty(), "{}", crowded.join("\n"));
}
