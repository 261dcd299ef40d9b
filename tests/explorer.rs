//! The Explorer: `check naive-tree 3 --explore ADDR` serves the lock-step
//! model; after "run to completion" the contention is a discovery whose
//! state shows the cube with the contended arc in red. With `--engine
//! actor` it serves stateright's ActorModel, each printed link a path of
//! that model; what the paper does not claim is listed as an observation.

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

/// Waits up to 20 s for the Explorer's page on `addr`: `check` probes the
/// address before stateright binds it, so a first connection may meet the
/// probe.
fn wait_for_page(addr: &str) {
    let start = Instant::now();
    while !page(addr).contains("<html") {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the Explorer never served its page"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
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
    wait_for_page(&addr);
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
    let step = step_at(addr, &path);
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

/// A wrong result where the run ends: the pane says it in the file's
/// terms (the rank, the buffer and offset, what it holds and what it
/// should) under the count of ranks that hold every chunk, and the
/// picture's caption says that a rank ends wrong beside that count.
#[test]
fn a_wrong_result_is_told_in_the_files_terms() {
    let file = std::env::temp_dir().join(format!(
        "commcheck-explorer-swapped-{}.xml",
        std::process::id()
    ));
    std::fs::write(&file, crate::msccl::swapped_allgather()).unwrap();
    let net = crate::msccl::ring_graph(4);
    let (_server, addr) = serve(&["schedule", file.to_str().unwrap(), "--network", &net]);
    let step = step_at(&addr, &discovery(&addr, "completeness"));
    let pane = step["outcome"].as_str().unwrap();
    assert!(
        pane.contains("completeness: rank 2") && pane.contains(", where chunk "),
        "{pane}"
    );
    let svg = step["svg"].as_str().unwrap();
    assert!(svg.contains("ends with a wrong result"), "{svg}");
    let _ = std::fs::remove_file(file);
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

/// `check <args> --explore ADDR` on a free port, with what it said on
/// stderr before serving (the report, the links, the address), once it
/// says whether the page checks the model itself.
fn serve_saying(args: &[&str]) -> (Server, String, String) {
    use std::io::BufRead;
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_check"))
        .args(args)
        .args(["--explore", &addr])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let server = Server(child);
    let mut said = Vec::new();
    for line in std::io::BufReader::new(stderr).lines() {
        let line = line.unwrap();
        let last = line.starts_with("The page checks");
        said.push(line);
        if last {
            break;
        }
    }
    wait_for_page(&addr);
    (server, addr, said.join("\n"))
}

/// The step a path leads to: the steps from its prefix, the one with
/// its last index.
fn step_at(addr: &str, path: &str) -> serde_json::Value {
    let (prefix, last) = path
        .rsplit_once('/')
        .expect("a path past the initial state");
    let steps = json(addr, &format!("/.states/{prefix}"));
    steps
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["actionIndex"].as_u64() == last.parse().ok())
        .cloned()
        .unwrap_or_else(|| panic!("no step {last} after {prefix}: {steps}"))
}

/// `--explore` says what it found before it serves: the report, and for
/// each violated property the address of its counterexample on the page.
#[test]
fn explore_says_what_it_found_with_a_link() {
    let (_server, addr, said) = serve_saying(&["naive-tree", "3"]);
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

/// What the paper does not claim is an observation, never a violation:
/// flood's duplicates (the notes claim one copy nowhere) break the
/// property "no duplicate receptions (not claimed)", whose discovery is
/// the slot where they show, and no property is named no-duplication;
/// the state pane lists them as observed, apart from the claims; the line
/// printed says "not claimed". (Every property is `always`, so that the
/// Explorer ticks what holds and warns of what breaks.)
#[test]
fn unclaimed_properties_are_observations_not_counterexamples() {
    let (_server, addr, said) = serve_saying(&["flood", "3"]);
    let addr = addr.as_str();
    assert!(
        said.contains(&format!(
            "no-duplication is not kept (observed, not claimed): see \
             http://{addr}/#/steps/0/0/0"
        )),
        "{said}"
    );
    assert!(!said.contains("no-duplication is violated"), "{said}");
    let path = discovery(addr, "no duplicate receptions (not claimed)");
    assert_eq!(
        path, "0/0/0",
        "the example ends at slot 2, where 011 hears twice"
    );
    let status = json(addr, "/.status");
    let listed: Vec<(String, String)> = status["properties"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_str().unwrap().into(), p[1].as_str().unwrap().into()))
        .collect();
    let has = |kind: &str, name: &str| listed.contains(&(kind.into(), name.into()));
    assert!(
        has("Always", "no duplicate receptions (not claimed)"),
        "{status}"
    );
    assert!(
        has("Always", "the optimum's transmissions (not claimed)"),
        "{status}"
    );
    assert!(has("Always", "completeness"), "a claim: {status}");
    assert!(
        !listed.iter().any(|(_, name)| name == "no-duplication"),
        "{status}"
    );
    let pane = step_at(addr, &path)["outcome"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(pane.contains("violated so far: nothing"), "{pane}");
    assert!(
        pane.contains("observed so far:\n  no-duplication: step 2: node 011 receives"),
        "{pane}"
    );
}

/// `--engine actor --explore` serves stateright's ActorModel (nob-appendix
/// on Q3 leaves 011 without the packet in every delivery order): its
/// states are the actor model's and its picture the ActorModel's sequence
/// diagram; the link printed for the violation leads to a state where
/// the pane says so, a path of the served model that the page's own check
/// (started by itself) also finds; the transmissions figure is listed as
/// an observation; contention-freedom, which the actor model does not
/// judge, is not listed.
#[test]
fn the_actor_model_is_served_with_links_to_its_violations() {
    let (_server, addr, said) = serve_saying(&["nob-appendix", "3", "--engine", "actor"]);
    let addr = addr.as_str();
    assert!(said.contains("engine actor"), "{said}");
    assert!(
        said.contains("completeness        VIOLATED  claimed"),
        "{said}"
    );
    let prefix = format!("completeness is violated: open http://{addr}/#/steps/");
    let path = said
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("a link to the violation: {said}"));
    assert!(
        said.contains(&format!(
            "transmissions is not kept (observed, not claimed): \
             see http://{addr}/#/steps/"
        )),
        "{said}"
    );
    assert!(said.contains("the actor model from source 000"), "{said}");
    // The page's model is the actor model.
    let status = json(addr, "/.status");
    assert!(
        status["model"].as_str().unwrap().contains("ActorModelPage"),
        "{status}"
    );
    let names: Vec<&str> = status["properties"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[1].as_str().unwrap())
        .collect();
    assert!(!names.contains(&"contention-freedom"), "{names:?}");
    assert!(
        names.contains(&"the optimum's transmissions (not claimed)"),
        "{names:?}"
    );
    let first = json(addr, "/.states");
    let init = &first.as_array().expect("the initial state")[0];
    let state = init["state"].as_str().unwrap();
    assert!(state.starts_with("ActorModelState"), "{state}");
    assert!(state.contains("actor_states"), "{state}");
    let svg = init["svg"].as_str().expect("a sequence diagram");
    assert!(svg.contains("svg-actor-timeline"), "{svg}");
    assert!(
        svg.contains(">3 011<"),
        "a timeline per node, in binary: {svg}"
    );
    // The link leads to the violation.
    let step = step_at(addr, path);
    let action = step["action"].as_str().unwrap();
    assert!(action.starts_with("deliver 0"), "{action}");
    let pane = step["outcome"].as_str().unwrap();
    assert!(
        pane.contains("completeness: the run ends with node 011 lacking the packet of 000"),
        "{pane}"
    );
    assert!(pane.contains("the run has ended"), "{pane}");
    assert!(
        pane.contains("observed so far:\n  transmissions:"),
        "{pane}"
    );
    let diagram = step["svg"].as_str().unwrap();
    assert!(
        diagram.contains("svg-event-line"),
        "the deliveries are arrows"
    );
    // Each delivery is labelled in the paper's words, never Rust's.
    assert!(
        diagram.contains("class='svg-event-label'>the packet of 000, slot "),
        "{diagram}"
    );
    assert!(!diagram.contains("Wire {"), "{diagram}");
    // The page's own check finds the violation too, on a path of the
    // same model.
    let own = discovery(addr, "completeness");
    let pane = step_at(addr, &own)["outcome"].as_str().unwrap().to_string();
    assert!(
        pane.contains("completeness: the run ends with node 011"),
        "{pane}"
    );
}

/// The actor model is served for event-driven protocols within the
/// actor reach; anything else is refused in one line.
#[test]
fn the_actor_explorer_refuses_in_one_line() {
    let refused = |args: &[&str], words: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_check"))
            .args(args)
            .args(["--engine", "actor", "--explore", "127.0.0.1:0"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(words), "{err}");
    };
    refused(&["flood", "3"], "flood is not event-driven");
    refused(
        &["nob", "6"],
        "the Explorer serves the actor model: n = 6 is past its reach for nob (n <= 5)",
    );
}

/// A schedule is served like an algorithm: its lock-step model, every
/// execution its order allows; the collision only some interleavings
/// produce is a discovery, and matching is listed (a schedule claims it);
/// the catalogue's pages do not list matching.
#[test]
fn a_schedule_is_served_with_its_collision_and_matching() {
    let (_server, addr) = serve(&[
        "schedule",
        "tests/schedules/gather_race.json",
        "--network",
        "hypercube:2",
        "--ports",
        "one",
    ]);
    assert_eq!(discovery(&addr, "contention-freedom"), "0/1");
    let status = json(&addr, "/.status");
    let names: Vec<&str> = status["properties"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[1].as_str().unwrap())
        .collect();
    assert!(names.contains(&"matching"), "{names:?}");
    let first = json(&addr, "/.states/0/1");
    let words = first[0]["outcome"].as_str().unwrap();
    assert!(words.contains("gather to rank 1"), "{words}");
    let (_sbt, sbt) = serve(&["sbt", "3"]);
    let status = json(&sbt, "/.status");
    assert!(!status.to_string().contains("matching"), "{status}");
}

/// The page's server stands behind commcheck's front: a body declared a
/// terabyte long, a path of 1 MB, a hundred clients gone before their
/// answer, 80 connections idle or sending a request a few bytes at a time
/// (more than the front's 64 places) and one that pipelines 200 requests
/// without reading each get a short refusal or nothing, and the page is
/// still served to the next client, at once.
#[test]
fn one_request_cannot_kill_or_stall_the_explorer() {
    let (_server, addr) = serve(&["nob", "3"]);
    let raw = |request: &[u8]| -> String {
        let mut s = TcpStream::connect(&addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let _ = s.write_all(request);
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer).into_owned()
    };
    let huge = raw(b"POST /.runtocompletion HTTP/1.1\r\nContent-Length: 1000000000000\r\n\r\n");
    assert!(huge.starts_with("HTTP/1.0 413"), "{huge}");
    let long = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(1 << 20));
    let long = raw(long.as_bytes());
    assert!(
        long.starts_with("HTTP/1.0 414") && long.len() < 1000,
        "{}",
        &long[..100]
    );
    for _ in 0..100 {
        let mut s = TcpStream::connect(&addr).expect("connect");
        let _ = s.write_all(b"GET /.status HTTP/1.1\r\n\r\n");
        drop(s);
    }
    let slow: Vec<TcpStream> = (0..80)
        .map(|k| {
            let mut s = TcpStream::connect(&addr).expect("connect");
            if k % 2 == 0 {
                let _ = s.write_all(b"GET / HT");
            }
            s
        })
        .collect();
    let mut greedy = TcpStream::connect(&addr).expect("connect");
    for _ in 0..200 {
        let _ = greedy.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    }
    let start = Instant::now();
    assert!(page(&addr).contains("<html"), "the page after the attacks");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "the page waited {:?} behind slow and greedy clients",
        start.elapsed()
    );
    drop((greedy, slow));
}

/// The Explorer's HTTP interface fuzzed: seeded requests of every shape
/// (methods, the API's paths and others, cut, repeated and huge parts,
/// encodings, header counts and sizes, lengths that lie, bodies of
/// bytes), each on its own connection, read with a deadline. The server
/// answers each with a status line or closes it, never stalls, and
/// serves its page after every 50. `COMMCHECK_FUZZ=N` sends N requests
/// (BENCHMARKS.md records a long run); the default is small.
#[test]
fn the_explorer_survives_fuzzed_requests() {
    let (_server, addr) = serve(&["naive-tree", "3"]);
    let requests = std::env::var("COMMCHECK_FUZZ")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300usize);
    let mut rng = crate::fuzz::Rng(0x005e_ed0f_e8b1_04e5);
    let methods = [
        "GET",
        "POST",
        "HEAD",
        "PUT",
        "DELETE",
        "OPTIONS",
        "G\0T",
        "",
        "GETGETGET",
    ];
    let paths = [
        "/",
        "/.status",
        "/.states",
        "/.states/0",
        "/.states/0/0/0",
        "/.states/99999999999999999999",
        "/.states/-1/0",
        "/.runtocompletion",
        "/.svg/0",
        "/app.js",
        "/../../etc/passwd",
        "/%00%ff%2e%2e",
        "*",
        "http://x/",
        "",
    ];
    let mut statuses: std::collections::BTreeMap<String, usize> = Default::default();
    for k in 0..requests {
        let mut path = paths[rng.below(paths.len())].to_string();
        match rng.below(6) {
            0 => path += &"/0".repeat(rng.below(5000)),
            1 => path += &"%".repeat(rng.below(100)),
            2 => path = path.repeat(rng.below(50) + 1),
            _ => {}
        }
        let mut request = format!(
            "{} {path} HTTP/1.{}\r\n",
            methods[rng.below(methods.len())],
            rng.below(3)
        )
        .into_bytes();
        for _ in 0..rng.below(4) {
            let header = match rng.below(6) {
                0 => format!("Content-Length: {}\r\n", rng.next()),
                1 => "Content-Length: -5\r\n".to_string(),
                2 => "Transfer-Encoding: chunked\r\n".to_string(),
                3 => format!(
                    "X-{}: {}\r\n",
                    "h".repeat(rng.below(100)),
                    "v".repeat(rng.below(20000))
                ),
                4 => "Connection: keep-alive\r\n".to_string(),
                _ => format!("Host: {addr}\r\n"),
            };
            request.extend(header.into_bytes());
        }
        request.extend(b"\r\n");
        for _ in 0..rng.below(64) {
            request.push(rng.next() as u8);
        }
        // Cut short, at times.
        if rng.below(8) == 0 {
            let cut = rng.below(request.len());
            request.truncate(cut);
        }
        let mut s = TcpStream::connect(&addr).expect("the Explorer accepts a connection");
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let _ = s.write_all(&request);
        let _ = s.shutdown(std::net::Shutdown::Write);
        let mut answer = Vec::new();
        let start = Instant::now();
        let _ = s.read_to_end(&mut answer);
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "request {k} left unanswered: {:?}",
            String::from_utf8_lossy(&request[..request.len().min(200)])
        );
        let status = String::from_utf8_lossy(&answer[..answer.len().min(12)]).into_owned();
        *statuses.entry(status).or_default() += 1;
        if k % 50 == 49 {
            assert!(page(&addr).contains("<html"), "the page after request {k}");
        }
    }
    assert!(
        page(&addr).contains("<html"),
        "the page after {requests} requests"
    );
    eprintln!("{requests} fuzzed requests: {statuses:?}");
}
