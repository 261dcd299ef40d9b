//! What a person looks at: the picture of a state (`picture`, the
//! Explorer's and `--svg`'s), the Explorer itself (`explore`), and the
//! exports of one run (`export`: `--svg`, `--dot`, `--svg-load`,
//! `--trace`).

pub mod explore;
pub mod export;
pub mod picture;
