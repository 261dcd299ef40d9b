//! What a person looks at: the picture of a state (`picture`, the
//! Explorer's and `--svg`'s), the Explorer itself (`explore`), and the
//! exports of one run (`export`: `--svg`, `--dot`, `--svg-load`,
//! `--trace`), and the run written as a schedule (`as_schedule`:
//! `--write-schedule`, `--write-goal`).

pub mod as_schedule;
pub mod explore;
pub mod export;
mod front;
pub mod picture;
