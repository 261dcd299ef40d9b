//! The executor over MPI ranks: arrivals in one process's order.
//! (These tests were inside `src/engine/executor/partitioned.rs`: here they share the one build
//! of the library the integration tests use.)

use commcheck::engine::executor::partitioned::*;
use models::{Arrival, ProtocolExt};
use properties::NodeId;

#[test]
fn a_ranks_own_arrivals_come_between_the_lower_and_the_higher_ranks() {
    // Rank 1 made its own deliveries first; rank 0's and rank 2's came
    // in later, by rank. One process's order is rank 0's, 1's, 2's.
    let mut keys = vec![local_key(2), (2, 1), local_key(1), (0, 7), (0, 3)];
    keys.sort_by_key(|&k| in_order(1, k));
    assert_eq!(keys, [(0, 3), (0, 7), local_key(1), local_key(2), (2, 1)]);
}

/// On Q_6 split over 2, 3, 4 and 8 ranks, a node's copies of a flood
/// placed in a rank's order (its own first, then the others' by rank)
/// read back, code first and then the overflow, in one process's order
/// (by sender): its nearer neighbours' copies (one code, merged across
/// ranks), with a copy sent twice, or with a farther neighbour's
/// (refused: the code goes whole).
#[test]
fn a_nodes_mail_reads_in_one_process_order() {
    use models::lecture_notes::flood::Flood;
    let n = 6;
    let p = Flood::new(models::Config {
        n,
        switching: models::Switching::Sf,
        ports: models::Ports::All,
        params: Default::default(),
    });
    let (mut merged, mut spilled) = (0, 0);
    for source in [0, 0b101010] {
        for ranks in [2usize, 3, 4, 8] {
            let per = 64usize.div_ceil(ranks);
            for to in (0..64).filter(|&v| v != source) {
                let me = to as usize / per;
                let nearer = (0..n).filter(|d| (to ^ source) >> d & 1 == 1);
                let farther = (0..n).find(|d| (to ^ source) >> d & 1 == 0);
                let mut cases: Vec<Vec<NodeId>> = vec![nearer.map(|d| to ^ 1 << d).collect()];
                cases.push([cases[0].clone(), vec![cases[0][0]]].concat());
                if let Some(d) = farther {
                    cases.push([cases[0].clone(), vec![to ^ 1 << d]].concat());
                }
                for mut senders in cases {
                    senders.sort_unstable();
                    let rank = |u: NodeId| u as usize / per;
                    // Sent in one process's order; placed own first.
                    let mut sent: Vec<(Key, NodeId)> = Vec::new();
                    for (seq, &u) in (1..).zip(&senders) {
                        sent.push(match rank(u) == me {
                            true => (local_key(seq), u),
                            false => ((rank(u) as u32, seq), u),
                        });
                    }
                    sent.sort_by_key(|&(k, _)| k.0 != local_key(0).0);
                    let mut mail = Mail::new(me, true, per);
                    let i = to as usize - me * per;
                    for (key, u) in sent {
                        let a = Arrival {
                            from: u,
                            msg: models::blocks::broadcast::Packet { source, step: 0 },
                        };
                        let code = p.pack_arrival(&source, to, &a);
                        let rank_of = |u: NodeId| match rank(u) == me {
                            true => local_key(0).0,
                            false => rank(u) as u32,
                        };
                        assert!(mail.place(&p, &source, (to, i), (key, a, code), rank_of));
                    }
                    mail.sort();
                    let mut read = Vec::new();
                    match mail.codes[i] {
                        EMPTY => unreachable!("it received"),
                        SPILLED => spilled += 1,
                        c => {
                            p.unpack_arrivals(&source, to, c - 1, &mut read);
                            merged += (read.len() > 1) as usize;
                        }
                    }
                    read.extend(mail.overflow.iter().map(|e| e.2));
                    let from: Vec<NodeId> = read.iter().map(|a| a.from).collect();
                    assert_eq!(from, senders, "source {source}, {ranks} ranks, to {to}");
                }
            }
        }
    }
    assert!(
        merged > 0 && spilled > 0,
        "{merged} merged, {spilled} spilled"
    );
}
