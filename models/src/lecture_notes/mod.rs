//! The lecture notes on one-to-all broadcast (section 11): on the
//! hypercube SBT, DT (McKinley and Trefftz's DTA), flooding and HKA; on
//! meshes and tori the dimension-order spanning trees, recursive doubling,
//! flooding and the dilated-diagonal broadcast.

pub mod dilated_diagonal;
pub mod dt;
pub mod flood;
pub mod hka;
pub mod mesh_flood;
pub mod mesh_sf;
pub mod recursive_doubling;
pub mod sbt;
