//! naive-tree: without Hamming codes the broadcasting tree contends, as
//! Wang and Ku's Fig. 4(a) shows; the checker finds it and says where.

use crate::support::*;
use commcheck::check::Engine;
use models::catalog::Algorithm;
use models::wang_ku::naive_tree::NaiveTree;
use properties::{PropertyName, Status};

#[test]
fn naive_tree_contends_at_n3() {
    let o = outcome("naive-tree", 3, Engine::Lockstep, None);
    let c = reported(&o, "contention-freedom");
    assert_eq!(c.status, properties::Status::Violated);
    assert_eq!(
        c.counterexample.as_ref().map(|c| c.text.as_str()),
        Some("source 000: step 1: arc 000->100 used by worm 000->100 and worm 000->110")
    );
    assert!(c.explorer_path.is_some());
    assert!(o.refuted());
    assert_eq!(
        o.reproduce.as_deref(),
        Some("check naive-tree 3 --source 0 --engine lockstep")
    );
}

#[test]
fn naive_tree_contends_from_every_source_up_to_n5_but_delivers_once() {
    for n in 3..=5u64 {
        let cfg = Algorithm::NaiveTree.config(n, None, None).unwrap();
        let search = lockstep(NaiveTree::new(cfg));
        assert_eq!(
            status(&search, PropertyName::ContentionFreedom),
            Status::Violated,
            "n={n}"
        );
        assert_holds(
            &search,
            &[PropertyName::Completeness, PropertyName::NoDuplication],
            &format!("n={n}"),
        );
    }
}

#[test]
fn naive_tree_contends_in_the_executor_and_names_both_worms() {
    let o = outcome("naive-tree", 6, Engine::Executor, None);
    let c = reported(&o, "contention-freedom");
    let text = c.counterexample.as_ref().unwrap().text.as_str();
    assert!(
        text.starts_with("source 000000: step 1: arc 000000->100000 used by worm"),
        "{text}"
    );
    assert!(
        !text.contains("another transmission"),
        "the replay names the first holder: {text}"
    );
}
