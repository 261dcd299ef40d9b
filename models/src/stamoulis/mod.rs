//! Stamoulis and Tsitsiklis, "An efficient algorithm for multiple
//! simultaneous broadcasts in the hypercube", IPL 46 (1993): the K-set
//! inputs they share (`broadcasters`), ESBT (section 2.3), the prefix
//! (section 2.4), fixed trees (section 3.1), the three-phase KBCAST and its
//! variants (section 3.2), and the small-K schemes (section 3.3).

pub mod broadcasters;
pub mod esbt;
pub mod fixed_trees;
pub mod ft_trees;
pub mod kbcast;
pub mod kbcast_ranked;
pub mod kbcast_small;
pub mod prefix;
