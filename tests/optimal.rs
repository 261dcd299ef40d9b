//! probe
use commcheck::optimal::{least_rounds, Model};
use models::config::{Ports, Switching};
use models::topology::grid::Grid;
use models::topology::hypercube::Hypercube;

#[test]
fn probe() {
    let n: u32 = std::env::var("OPT_N").map_or(0, |v| v.parse().unwrap());
    if n > 0 {
        let t = Hypercube::new(n, Switching::Wh, Ports::All);
        let start = std::time::Instant::now();
        let o = least_rounds(&t, Model { wormhole: true, max_sends: None }, 0, 6, 50_000_000).unwrap();
        println!("Q{n} WH all: {:?} from {} states {} {:?} witness {:?}", o.rounds, o.from, o.states, start.elapsed(), o.witness.iter().map(|r| r.len()).collect::<Vec<_>>());
        return;
    }
    for (sides, src) in [(vec![3u32,3], vec![0u32,1]), (vec![3,3], vec![1,1]), (vec![3,5], vec![0,2]), (vec![5,3], vec![2,0]),(vec![5,5], vec![0,2]), (vec![5,5], vec![2,2]), (vec![3,7], vec![0,3]), (vec![5,7], vec![0,3])] {
        let t = Grid::new(&sides, false, Switching::Sf, Ports::One);
        let s = t.node(&src);
        let start = std::time::Instant::now();
        let o = least_rounds(&t, Model { wormhole: false, max_sends: None }, s, 14, 50_000_000).unwrap();
        println!("M{sides:?} src {src:?} ecc {}: {:?} from {} states {} {:?}", t.eccentricity(s), o.rounds, o.from, o.states, start.elapsed());
    }
}
