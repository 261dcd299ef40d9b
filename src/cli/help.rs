//! The pages `check` prints about its algorithms: `check list`, and
//! `check help ALG` (or `check ALG --help`); the name closest to a
//! mistyped one.

use models::catalog::Algorithm;
use models::Family;

/// The page of one algorithm: paper, claims, parameters, modes, reach.
pub fn algorithm_help(a: Algorithm) -> String {
    let modes = a.modes_as_flags();
    let r = a.reach();
    let actor = if r.actor == 0 {
        "none (not event-driven)".to_string()
    } else {
        format!(
            "n <= {} (run by the default check up to n = {})",
            r.actor, r.actor_auto
        )
    };
    format!(
        "{name}: {summary}\n\
         paper:      {reference}\n\
         claim:      {claim}\n\
         parameters: n, {size} ({min}..={max}){params}{sources}\n\
         modes:      {modes} (the first is the default)\n\
         reach without a budget, on 2 cores (BENCHMARKS.md):\n  \
         lock-step   n <= {lock} (the default engine up to there; the executor past it)\n  \
         actor model {actor}\n  \
         executor    {executor}\n\n\
         usage: check {name} N [--source S | --all-sources] [--engine E] [--switching S] \
         [--ports P]\n             [--json | --quiet] [--threads T] [--max-states N] \
         [--timeout SECS] [--max-memory GB]{flags}\n",
        name = a.name(),
        flags = {
            let declared = a.info().params;
            let takes = |f| declared.iter().any(|p| p.flag == f);
            let mut f: Vec<&str> = Vec::new();
            if takes("--k") {
                f.push("--k K | --all-k");
            }
            if takes("--broadcasters") {
                f.push("--broadcasters LIST");
            }
            if takes("--multiset") {
                f.push("--multiset");
            }
            if takes("--ell") {
                f.push("--ell L | --all-ell");
            }
            match f.is_empty() {
                true => String::new(),
                false => format!("\n             [{}]", f.join(" | ")),
            }
        },
        params = a
            .info()
            .params
            .iter()
            .map(|p| format!("; {} {}", p.flag, p.meaning))
            .collect::<String>(),
        executor = executor_reach(a),
        summary = a.summary(),
        reference = a.reference(),
        claim = a.claim(),
        size = match a.family() {
            Family::Cube => "the cube dimension",
            Family::MeshBus { .. } => "the mesh's side (n x n nodes)",
            Family::Grid { .. } =>
                "the sides, e.g. 5x7, 4x4x4 or 16 (the line M(16)), up to 2^24 nodes; each side",
            Family::Graph => "the number of nodes",
        },
        min = a.family().sizes().0,
        max = a.family().sizes().1,
        sources = match a.family() {
            Family::Cube =>
                "; --source S where it has a source (default: one source \
                 per symmetry orbit, --all-sources for every one)",
            Family::MeshBus { .. } | Family::Graph => "",
            Family::Grid { .. } =>
                "; --source as coordinates (2,3 counted from 0) or a node id (default: \
                 every source)",
        },
        lock = r.lockstep,
    )
}

/// An algorithm's modes, `switching/ports` each.
fn modes(a: Algorithm) -> String {
    a.modes()
        .iter()
        .map(|(s, p)| format!("{s}/{p}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `check list`: a line per algorithm, its name and what it is; with
/// `long`, its paper, claim and modes too.
pub fn list(long: bool) -> String {
    // The names' column, as wide as the longest name and two spaces.
    let w = Algorithm::ALL
        .iter()
        .map(|a| a.name().len())
        .max()
        .unwrap_or(0)
        + 2;
    let mut s = String::new();
    for &a in Algorithm::ALL {
        s += &format!("{:<w$}{}\n", a.name(), a.summary());
        if long {
            s += &format!(
                "{:<w$}paper: {}\n{:<w$}claim: {}\n{:<w$}modes: {} (switching/ports)\n",
                "",
                a.reference(),
                "",
                a.claim(),
                "",
                modes(a)
            );
        }
    }
    s
}

/// `check list --format markdown`: the catalogue as a table (algorithm,
/// paper and section, claim, modes), as docs/catalogue.md prints it.
pub fn catalogue_markdown() -> String {
    let cell = |text: &str| text.replace('|', "\\|");
    let mut s = String::from(
        "| algorithm | paper and section | claim | modes (switching/ports) |\n|---|---|---|---|\n",
    );
    for &a in Algorithm::ALL {
        s += &format!(
            "| `{}` | {} | {} | {} |\n",
            a.name(),
            cell(a.reference()),
            cell(a.claim()),
            modes(a)
        );
    }
    s
}

/// The algorithm name closest to a mistyped one, if any is close.
pub fn suggest(name: &str) -> Option<&'static str> {
    /// Edits between a and b, a swap of neighbours counting one (optimal
    /// string alignment): `nbo` is one from `nob`, two from `mnb`.
    fn distance(a: &str, b: &str) -> usize {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in d[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                d[i][j] = (d[i - 1][j - 1] + cost)
                    .min(d[i - 1][j] + 1)
                    .min(d[i][j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
                }
            }
        }
        d[a.len()][b.len()]
    }
    Algorithm::ALL
        .iter()
        .map(|a| (distance(name, a.name()), a.name()))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, n)| n)
}

/// The executor's reach on the reference machine's 24 GB, by the cost
/// model the memory check refuses sizes with (`executor_bytes`). A grid's
/// size is its sides, not one n: its reach is its node count's.
pub fn executor_reach(a: Algorithm) -> String {
    const MACHINE: u64 = 24 << 30;
    let gb = |n: u32| a.executor_bytes(n) as f64 / 1e9;
    let (min, max) = a.family().sizes();
    let word = a.family().size_word();
    if !matches!(a.family(), Family::Cube | Family::MeshBus { .. }) {
        return "as far as memory allows (the report's memory check says before it runs)".into();
    }
    match (min..=max)
        .take_while(|&n| a.executor_bytes(n) <= MACHINE)
        .last()
    {
        Some(n) if n == max => format!(
            "every {word} up to {n} in 24 GB (n = {n}: about {:.1} GB by the cost model)",
            gb(n)
        ),
        Some(n) => format!(
            "{word} up to {n} in 24 GB (about {:.1} GB; n = {}: {:.1} GB by the cost model)",
            gb(n),
            n + 1,
            gb(n + 1)
        ),
        None => "no size fits in 24 GB by the cost model".into(),
    }
}
