//! flood: complete within the diameter, as the lecture notes claim, and
//! duplicating, as they warn; the checker shows the duplicate.

use crate::support::*;
use commcheck::check::Engine;
use models::catalog::Algorithm;
use models::lecture_notes::flood::Flood;
use properties::{PropertyName, Status};

#[test]
fn flood_duplicates_are_found_and_shown() {
    let o = outcome("flood", 3, Engine::Lockstep, None);
    let d = reported(&o, "no-duplication");
    assert_eq!(d.status, properties::Status::Violated);
    assert!(!d.claimed, "the notes do not claim one copy");
    assert_eq!(
        d.counterexample.as_ref().map(|c| c.text.as_str()),
        Some("source 000: step 2: node 011 receives the packet of 000 again, from 010")
    );
    assert!(!o.refuted(), "an observation is not a refuted claim");
}

#[test]
fn flood_completes_within_the_diameter_with_n_2_to_the_n_minus_1_transmissions() {
    for n in 1..=5u32 {
        let cfg = Algorithm::Flood.config(n as u64, None, None).unwrap();
        let search = lockstep(Flood::new(cfg));
        assert_holds(
            &search,
            &[
                PropertyName::Completeness,
                PropertyName::TimeBound,
                PropertyName::ContentionFreedom,
            ],
            &format!("n={n}"),
        );
        assert_eq!(search.worst_time, Some(n));
        // A node at distance d hears the packet from its d lower neighbours:
        // sum over d of d * C(n, d) = n 2^(n-1) transmissions.
        let t = (n as u64) << (n - 1);
        assert_eq!(search.transmissions, Some((t, t)));
        let dup = if n >= 2 {
            Status::Violated
        } else {
            Status::Holds
        };
        assert_eq!(status(&search, PropertyName::NoDuplication), dup, "n={n}");
    }
}

/// The executor's dense drive holds the copies a node hears in one slot
/// in one code (flood merges them): from any source and on 1, 2 and 4
/// lanes it makes the inbox drive's run. Where a copy is missing or sent
/// twice (seeded bugs) no code can say them; they are kept whole and the
/// run is still the inbox drive's.
#[test]
fn the_dense_drive_makes_the_inbox_drives_run_with_copies_merged() {
    use commcheck::engine::executor::{drive, Drive};
    use commcheck::engine::search::Progress;
    let cfg = || Algorithm::Flood.config(9, None, None).unwrap();
    fn same<P: models::Protocol>(p: &P, input: &P::Input, what: &str) -> properties::Record {
        let inbox = drive(p, input, &Progress::default(), Drive::Inbox);
        for threads in [1, 2, 4] {
            let dense = drive(p, input, &Progress::default(), Drive::Dense { threads });
            assert_eq!(dense, inbox, "{what} on {threads} lanes");
        }
        inbox.record
    }
    let p = Flood::new(cfg());
    for source in [0, 1, 0b101010101, 511] {
        let record = same(&p, &source, &format!("source {source}"));
        assert_eq!(record.transmissions, 9 << 8, "source {source}");
        assert_eq!(record.completion, 9, "source {source}");
    }
    for bug in [CopyBug::Missing, CopyBug::Twice, CopyBug::Other] {
        let m = models::Mutant::new(Flood::new(cfg()), bug);
        let record = same(&m, &0, &format!("{bug:?}"));
        // Missing: node 111 hears 101 and 110 but not 011, and sends 011 a
        // copy in slot 4 instead. Twice: one copy more.
        let sent = match bug {
            CopyBug::Missing => (9 << 8) - 1 + 1,
            CopyBug::Twice | CopyBug::Other => (9 << 8) + 1,
        };
        assert_eq!(record.transmissions, sent, "{bug:?}");
        // Other: 011 hears 001's copy, 001's other message (no code
        // joins them) and then 010's copy, which must not join the first
        // code ahead of the second: the first copy heard again is 001's.
        if bug == CopyBug::Other {
            let again = record.violation(PropertyName::NoDuplication);
            let from_001 = properties::Violation::Duplicate {
                slot: 2,
                node: 0b011,
                packet: 0,
                from: 0b001,
            };
            assert_eq!(again, Some(from_001));
        }
    }
}

/// Seeded bugs in flood from source 0: node 011's copy to 111 is lost,
/// or sent twice; or 001 sends 011 a copy with another step index too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CopyBug {
    Missing,
    Twice,
    Other,
}

impl models::Mutation<Flood> for CopyBug {
    type Memory = ();

    fn step(
        &self,
        inner: &Flood,
        node: properties::NodeId,
        state: &mut models::MutantState<models::lecture_notes::flood::FloodState, ()>,
        slot: properties::Slot,
        arrivals: &[models::Arrival<models::blocks::broadcast::Packet>],
        choice: u32,
        out: &mut Vec<properties::Transmission<models::blocks::broadcast::Packet>>,
    ) -> bool {
        use models::Protocol;
        let again = inner.step(node, &mut state.inner, slot, arrivals, choice, out);
        let to_111 = |t: &properties::Transmission<_>| {
            t.route
                == properties::Route::Link {
                    from: 0b011,
                    to: 0b111,
                }
        };
        if node == 0b001 && *self == CopyBug::Other && !out.is_empty() {
            let mut other = out[0];
            other.route = properties::Route::Link {
                from: 0b001,
                to: 0b011,
            };
            other.msg.step = 1;
            out.push(other);
        }
        match self {
            CopyBug::Missing if node == 0b011 => out.retain(|t| !to_111(t)),
            CopyBug::Twice if node == 0b011 => {
                if let Some(&copy) = out.iter().find(|t| to_111(t)) {
                    out.push(copy);
                }
            }
            _ => {}
        }
        again
    }
}
