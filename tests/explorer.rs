//! The Explorer: `check naive-tree 3 --explore ADDR` serves the lock-step
//! model; after "run to completion" the contention is a discovery whose
//! state shows the cube with the contended arc in red.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Kills the server when the test ends, pass or fail.
pub struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn http(addr: &str, method: &str, path: &str) -> String {
    let mut s = TcpStream::connect(addr).expect("connect");
    write!(
        s,
        "{method} {path} HTTP/1.0\r\nHost: {addr}\r\nContent-Length: 0\r\n\r\n"
    )
    .unwrap();
    let mut body = String::new();
    s.read_to_string(&mut body).unwrap();
    body.split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default()
}

/// The Explorer's page, or nothing while it is not up.
fn page(addr: &str) -> String {
    let Ok(mut s) = TcpStream::connect(addr) else {
        return String::new();
    };
    let _ = write!(s, "GET / HTTP/1.0\r\nHost: {addr}\r\n\r\n");
    let mut body = String::new();
    let _ = s.read_to_string(&mut body);
    body
}

fn json(addr: &str, path: &str) -> serde_json::Value {
    serde_json::from_str(&http(addr, "GET", path)).expect("JSON")
}

/// `check <args> --explore ADDR` on a free port, once its page is up.
pub fn serve(args: &[&str]) -> (Server, String) {
    // A free port: bind one, read it, let it go.
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .to_string();
    let child = Command::new(env!("CARGO_BIN_EXE_check"))
        .args(args)
        .args(["--explore", &addr])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let server = Server(child);
    let start = Instant::now();
    // `check` probes the address before stateright binds it, so a first
    // connection may meet the probe: wait for the page itself.
    while !page(&addr).contains("<html") {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the Explorer never served its page"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (server, addr)
}

/// On the mesh-bus each bus write is drawn: the bus, its writer ringed,
/// the tokens it carries. SIMPLE's first step on the 3x3 mesh: the first
/// even-sum writer of each row, (1,1), (2,2) and (3,1), on its row, and
/// the first odd-sum writer of each column, (2,1), (1,2) and (2,3), on its
/// column.
#[test]
fn mesh_bus_writes_show_the_bus_the_writer_and_the_tokens() {
    let (_server, addr) = serve(&["simple", "3"]);
    let addr = addr.as_str();
    let first = json(addr, "/.states/0");
    let step = &first.as_array().expect("the steps from the first state")[0];
    let svg = step["svg"].as_str().expect("an SVG of the state");
    roxmltree::Document::parse(svg).expect("well-formed SVG");
    assert_eq!(
        svg.matches("class='node'").count(),
        9,
        "every node of the 3x3 mesh"
    );
    assert_eq!(svg.matches("class='bus'").count(), 6, "{svg}");
    assert_eq!(svg.matches("class='writer'").count(), 6, "{svg}");
    assert!(svg.contains("(3,1) on R_3: t(3,1)"), "{svg}");
    assert!(svg.contains("(1,1) on R_1: t(1,1)"), "{svg}");
    assert!(svg.contains("(1,2) on C_2: t(1,2)"), "{svg}");
}

/// The discovery path of `property`, once the page's own check (started
/// by `check` itself, never pressed here) has found it.
fn discovery(addr: &str, property: &str) -> String {
    let start = Instant::now();
    loop {
        let status = json(addr, "/.status");
        let found = status["properties"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p[1] == property)
            .and_then(|p| p[2].as_str().map(str::to_string));
        if let Some(path) = found {
            return path;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no discovery of {property} without pressing Run to completion: {status}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `--explore` runs the page's own check of a small model at once: the
/// violated property links its discovery, which ends at the slot of the
/// violation (slot 1 here), labelled in the paper's words, with the
/// contended arc drawn and the state told in words.
#[test]
fn naive_tree_contention_is_one_click_away_with_a_picture() {
    let (_server, addr) = serve(&["naive-tree", "3"]);
    let addr = addr.as_str();
    let path = discovery(addr, "contention-freedom");
    // The initial state, then one action: slot 1, where the worms meet.
    assert_eq!(path, "0/0", "the discovery ends at the violating slot");
    let steps = json(addr, "/.states/0");
    let step = &steps.as_array().unwrap()[0];
    let action = step["action"].as_str().expect("a label");
    assert!(
        action.starts_with("slot 1: ") && action.contains("000->100: the packet of 000"),
        "{action}"
    );
    let pane = step["outcome"].as_str().expect("the state in words");
    assert!(pane.contains("source 000, after slot 1"), "{pane}");
    assert!(
        pane.contains("holding all they must: 4 of 8 nodes"),
        "{pane}"
    );
    assert!(
        pane.contains("contention-freedom: step 1: arc 000->100 used by worm 000->100"),
        "{pane}"
    );
    let svg = step["svg"].as_str().expect("an SVG of the state");
    roxmltree::Document::parse(svg).expect("well-formed SVG");
    assert!(
        svg.contains("class='contended'"),
        "the contended arc is drawn: {svg}"
    );
    assert!(svg.contains("contended in step 1: arc 000->100"), "{svg}");
    assert_eq!(svg.matches("class='node'").count(), 8, "every node of Q3");
}

/// A run whose violation is only judged as it ends (a node left without
/// the packet) is discovered at its last slot, not before: nob-appendix
/// on Q3 leaves nodes uninformed.
#[test]
fn a_missing_packet_is_discovered_where_the_run_ends() {
    let (_server, addr) = serve(&["nob-appendix", "3"]);
    let addr = addr.as_str();
    let path = discovery(addr, "completeness");
    let (prefix, last) = path.rsplit_once('/').unwrap();
    let steps = json(addr, &format!("/.states/{prefix}"));
    let step = steps
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["actionIndex"].as_u64() == last.parse().ok())
        .expect("the discovery's last step");
    let pane = step["outcome"].as_str().unwrap();
    assert!(pane.contains("the run has ended"), "{pane}");
    assert!(
        pane.contains("completeness: the run ends with node"),
        "{pane}"
    );
    // No action follows the end of a run.
    assert_eq!(
        json(addr, &format!("/.states/{path}")),
        serde_json::json!([])
    );
}

/// A mesh is drawn as its grid (lecture notes): recursive doubling on
/// M(4,4) from (0,0) sends its first worm half-way along dimension 1, to
/// (2,0), drawn as an arrow over the grid's links.
#[test]
fn a_mesh_is_drawn_as_a_grid_with_its_worms() {
    let (_server, addr) = serve(&["recursive-doubling", "4x4"]);
    let addr = addr.as_str();
    let first = json(addr, "/.states/0");
    let step = &first.as_array().expect("the steps from the first state")[0];
    let svg = step["svg"].as_str().expect("an SVG of the state");
    roxmltree::Document::parse(svg).expect("well-formed SVG");
    assert_eq!(svg.matches("class='node'").count(), 16, "{svg}");
    // M(4,4) has 2 x 4 x 3 = 24 links.
    assert_eq!(svg.matches("stroke='#ddd'").count(), 24, "{svg}");
    assert_eq!(svg.matches("class='worm'").count(), 1, "{svg}");
    assert!(svg.contains("(0,0)->(2,0)"), "{svg}");
}

/// `--explore` says what it found before it serves: the report, and for
/// each violated property the address of its counterexample on the page.
#[test]
fn explore_says_what_it_found_with_a_link() {
    use std::io::BufRead;
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_check"))
        .args(["naive-tree", "3", "--explore", &addr])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let _server = Server(child);
    let mut said = Vec::new();
    for line in std::io::BufReader::new(stderr).lines() {
        let line = line.unwrap();
        let last = line.starts_with("The page checks");
        said.push(line);
        if last {
            break;
        }
    }
    let said = said.join("\n");
    assert!(
        said.contains("contention-freedom  VIOLATED  claimed"),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "contention-freedom is violated: open http://{addr}/#/steps/0/0"
        )),
        "{said}"
    );
    assert!(
        said.contains("The page checks the model itself (4 states)"),
        "{said}"
    );
}
