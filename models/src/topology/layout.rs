//! Where a machine's parts go in a picture (`--svg`, the Explorer): laid
//! out the way engineers draw servers, not on a circle.
//!
//! * **Servers side by side.** A server is what stays joined when the
//!   network fabric (NICs and network switches) is taken away; servers go
//!   left to right in the order of their first node.
//! * **Within a server**, its accelerators in two rows, the first half
//!   above and the second below (a DGX-1's two quads apart, counterparts
//!   one above the other), or in rows of the machine's own width where it
//!   gives one (a torus's first side). Its other parts (NVSwitches, PCIe
//!   switches, CPUs) go between the rows: each in the row of its distance
//!   from the nearer row of accelerators (an equal distance in the middle),
//!   across at the mean of its neighbours placed before it, spread apart
//!   where two would meet.
//! * **The fabric**: a NIC above or below its server, beside the
//!   accelerator it serves; the network switches in a row below all
//!   servers, in the middle of what they join.
//!
//! Positions are in units: neighbours in a row are one apart.

use super::parts::NodeKind;
use properties::NodeId;
use std::collections::VecDeque;

/// Per node of the `n` joined by `links` (each once or both ways), the
/// number of its server: what stays joined without the nodes `fabric`
/// names (usize::MAX for those), numbered in the order of their first
/// node. A picture takes NICs and network switches away; a bound across
/// servers only the switches (a NIC's link is its server's way out).
pub fn servers(links: &[(NodeId, NodeId)], n: usize, fabric: impl Fn(usize) -> bool) -> Vec<usize> {
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(u, v) in links {
        next[u as usize].push(v as usize);
        next[v as usize].push(u as usize);
    }
    let mut server_of = vec![usize::MAX; n];
    let mut count = 0;
    for s in 0..n {
        if fabric(s) || server_of[s] != usize::MAX {
            continue;
        }
        server_of[s] = count;
        let mut queue = VecDeque::from([s]);
        while let Some(u) = queue.pop_front() {
            for &v in &next[u] {
                if !fabric(v) && server_of[v] == usize::MAX {
                    server_of[v] = count;
                    queue.push_back(v);
                }
            }
        }
        count += 1;
    }
    server_of
}

/// Rows of parts between the accelerators' rows, at most (deeper parts
/// share the middle row).
const MAX_DEPTH: usize = 4;

/// The position of each node of a machine whose nodes are `kinds` and
/// links `links` (each once or both ways), its accelerators in rows of
/// `width` where given.
pub fn layout(
    kinds: &[NodeKind],
    links: &[(NodeId, NodeId)],
    width: Option<u32>,
) -> Vec<(f32, f32)> {
    let n = kinds.len();
    if width.is_none() && kinds.iter().all(|k| k.is_accelerator()) {
        return Vec::new();
    }
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(u, v) in links {
        next[u as usize].push(v as usize);
        next[v as usize].push(u as usize);
    }
    next.iter_mut().for_each(|x| {
        x.sort_unstable();
        x.dedup()
    });
    let mut at: Vec<Option<(f32, f32)>> = vec![None; n];
    // The servers, each as its nodes in order.
    let server_of = servers(links, n, |v| {
        matches!(kinds[v], NodeKind::Nic | NodeKind::Switch)
    });
    let mut servers: Vec<Vec<usize>> = Vec::new();
    for (v, &s) in server_of
        .iter()
        .enumerate()
        .filter(|(_, &s)| s != usize::MAX)
    {
        if s == servers.len() {
            servers.push(Vec::new());
        }
        servers[s].push(v);
    }
    let mut left = 0.0f32;
    let mut bottom = 0.0f32;
    for members in &servers {
        let (right, low) = place_server(members, kinds, &next, width, left, &mut at);
        left = right + 1.5;
        bottom = bottom.max(low);
    }
    // NICs beside their accelerators, above the top row or below the
    // bottom one; then the network switches below everything.
    let mut nics: Vec<usize> = (0..n).filter(|&v| kinds[v] == NodeKind::Nic).collect();
    nics.sort_unstable();
    let mut placed_rows: Vec<(f32, Vec<usize>)> = Vec::new();
    for &v in &nics {
        let near: Vec<(f32, f32)> = next[v].iter().filter_map(|&u| at[u]).collect();
        let Some(&(x, y)) = near.first() else {
            continue;
        };
        let top = servers
            .get(
                next[v]
                    .iter()
                    .map(|&u| server_of[u])
                    .min()
                    .unwrap_or(usize::MAX),
            )
            .and_then(|m| {
                m.iter()
                    .filter_map(|&u| at[u])
                    .map(|p| p.1)
                    .reduce(f32::min)
            })
            .unwrap_or(0.0);
        let row = match y <= top + 0.01 {
            true => top - 1.0,
            false => bottom + 1.0,
        };
        at[v] = Some((x + 0.35, row));
        match placed_rows
            .iter_mut()
            .find(|(y, _)| (*y - row).abs() < 0.01)
        {
            Some((_, vs)) => vs.push(v),
            None => placed_rows.push((row, vec![v])),
        }
    }
    if !nics.is_empty() {
        bottom += 1.0;
    }
    let rest: Vec<usize> = (0..n).filter(|&v| at[v].is_none()).collect();
    let low = bottom + 1.5;
    for &v in &rest {
        let near: Vec<(f32, f32)> = next[v].iter().filter_map(|&u| at[u]).collect();
        let x = match near.is_empty() {
            true => left / 2.0,
            false => near.iter().map(|p| p.0).sum::<f32>() / near.len() as f32,
        };
        at[v] = Some((x, low));
    }
    placed_rows.push((low, rest));
    for (_, row) in &placed_rows {
        spread(row, &mut at);
    }
    at.into_iter().map(|p| p.unwrap_or((0.0, 0.0))).collect()
}

/// Places one server's `members` with its left edge at `left`; returns
/// its right edge and its lowest row.
fn place_server(
    members: &[usize],
    kinds: &[NodeKind],
    next: &[Vec<usize>],
    width: Option<u32>,
    left: f32,
    at: &mut [Option<(f32, f32)>],
) -> (f32, f32) {
    let accelerators: Vec<usize> = members
        .iter()
        .copied()
        .filter(|&v| kinds[v].is_accelerator() || kinds[v] == NodeKind::Node)
        .collect();
    let others: Vec<usize> = members
        .iter()
        .copied()
        .filter(|v| !accelerators.contains(v))
        .collect();
    let k = accelerators.len();
    if let Some(w) = width.map(|w| w.max(1) as usize) {
        for (i, &v) in accelerators.iter().enumerate() {
            at[v] = Some((left + (i % w) as f32, (i / w) as f32));
        }
        let rows = k.div_ceil(w) as f32;
        for (i, &v) in others.iter().enumerate() {
            at[v] = Some((left + i as f32, rows + 0.5));
        }
        let right = left + (w.min(k.max(1)) - 1) as f32;
        return (right, rows);
    }
    let half = k.div_ceil(2);
    let (top, bottom) = accelerators.split_at(half);
    // Each other part's distance from the top row and from the bottom.
    let distance = |from: &[usize]| {
        let mut d = vec![usize::MAX; kinds.len()];
        let mut queue: VecDeque<usize> = from.iter().copied().collect();
        from.iter().for_each(|&v| d[v] = 0);
        while let Some(u) = queue.pop_front() {
            for &v in &next[u] {
                if d[v] == usize::MAX && members.binary_search(&v).is_ok() {
                    d[v] = d[u] + 1;
                    queue.push_back(v);
                }
            }
        }
        d
    };
    let (up, down) = (distance(top), distance(bottom));
    // Rows: 0 the top accelerators, then the parts nearer the top by
    // depth, the middle, the parts nearer the bottom, the bottom ones.
    let depth = |d: usize| d.clamp(1, MAX_DEPTH);
    let upper = others
        .iter()
        .filter(|&&v| up[v] < down[v])
        .map(|&v| depth(up[v]))
        .max()
        .unwrap_or(0);
    let lower = others
        .iter()
        .filter(|&&v| down[v] < up[v])
        .map(|&v| depth(down[v]))
        .max()
        .unwrap_or(0);
    let middle = others.iter().any(|&v| up[v] == down[v]) as usize;
    let last = (upper + middle + lower + 1) as f32;
    let row_of = |v: usize| -> f32 {
        match up[v].cmp(&down[v]) {
            std::cmp::Ordering::Less => depth(up[v]) as f32,
            std::cmp::Ordering::Greater => last - depth(down[v]) as f32,
            std::cmp::Ordering::Equal => (upper + 1) as f32,
        }
    };
    let last = match bottom.is_empty() {
        true => (upper + middle) as f32,
        false => last,
    };
    for (i, &v) in top.iter().enumerate() {
        at[v] = Some((left + i as f32, 0.0));
    }
    for (i, &v) in bottom.iter().enumerate() {
        at[v] = Some((left + i as f32, last));
    }
    // Outside in: the rows nearest the accelerators first, each part at
    // the mean of its neighbours placed already.
    let mut order = others.clone();
    order.sort_by_key(|&v| (up[v].min(down[v]), up[v] == down[v], v));
    let mut rows: Vec<(f32, Vec<usize>)> = Vec::new();
    for &v in &order {
        let near: Vec<f32> = next[v].iter().filter_map(|&u| at[u]).map(|p| p.0).collect();
        let x = match near.is_empty() {
            true => left + (half.max(1) - 1) as f32 / 2.0,
            false => near.iter().sum::<f32>() / near.len() as f32,
        };
        let y = row_of(v);
        at[v] = Some((x, y));
        match rows.iter_mut().find(|(r, _)| (*r - y).abs() < 0.01) {
            Some((_, vs)) => vs.push(v),
            None => rows.push((y, vec![v])),
        }
        // A row spread as it grows, so that later parts see where the
        // earlier ones went.
        let row = &rows
            .iter()
            .find(|(r, _)| (*r - y).abs() < 0.01)
            .expect("just added")
            .1;
        spread(row, at);
    }
    let right = members
        .iter()
        .filter_map(|&v| at[v])
        .map(|p| p.0)
        .fold(left, f32::max);
    (right, last)
}

/// Moves the nodes of one row apart to at least one unit, keeping their
/// order and their mean.
fn spread(row: &[usize], at: &mut [Option<(f32, f32)>]) {
    let mut xs: Vec<(f32, usize)> = row
        .iter()
        .filter_map(|&v| at[v].map(|p| (p.0, v)))
        .collect();
    if xs.len() < 2 {
        return;
    }
    xs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mean = xs.iter().map(|p| p.0).sum::<f32>() / xs.len() as f32;
    let mut moved: Vec<f32> = Vec::with_capacity(xs.len());
    for &(x, _) in &xs {
        let x = match moved.last() {
            Some(&prev) if x < prev + 1.0 => prev + 1.0,
            _ => x,
        };
        moved.push(x);
    }
    let shift = mean - moved.iter().sum::<f32>() / moved.len() as f32;
    let changed = moved
        .iter()
        .zip(&xs)
        .any(|(m, (x, _))| (m - x).abs() > 1e-4);
    if !changed {
        return;
    }
    for (m, &(_, v)) in moved.iter().zip(&xs) {
        if let Some(p) = at[v].as_mut() {
            p.0 = m + shift;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use NodeKind::*;

    /// Two quads apart, a switch between: the GPUs of the first half on
    /// row 0, the second half on the last row, counterparts aligned, the
    /// switch in the middle.
    #[test]
    fn a_switched_server_has_its_switch_between_two_rows() {
        let mut kinds = vec![Gpu; 8];
        kinds.push(NvSwitch);
        let links: Vec<(NodeId, NodeId)> = (0..8).map(|g| (g, 8)).collect();
        let at = layout(&kinds, &links, None);
        assert_eq!(at[0], (0.0, 0.0));
        assert_eq!(at[4], (0.0, 2.0));
        assert_eq!(at[8], (1.5, 1.0));
    }

    /// Two servers side by side, their NICs beside their GPUs and the
    /// network switch below both, in the middle.
    #[test]
    fn servers_go_side_by_side_with_the_switch_below() {
        let mut kinds = vec![Gpu; 4];
        kinds.extend([Nic, Nic, Nic, Nic, Switch]);
        let mut links = vec![(0, 1), (2, 3)];
        for g in 0..4 {
            links.push((g, 4 + g));
            links.push((4 + g, 8));
        }
        let at = layout(&kinds, &links, None);
        assert!(at[2].0 > at[1].0, "{at:?}");
        let below = at[..8].iter().map(|p| p.1).fold(f32::MIN, f32::max);
        assert!(at[8].1 > below, "{at:?}");
        let mid = (at[0].0 + at[3].0) / 2.0;
        assert!((at[8].0 - mid).abs() < 1.0, "{at:?}");
    }

    /// No two parts at one place, on a server with PCIe switches and CPUs
    /// between its rows, and a torus in rows of its width.
    #[test]
    fn parts_never_share_a_place() {
        let mut kinds = vec![Gpu; 8];
        kinds.extend([Cpu, Cpu, PcieSwitch, PcieSwitch, PcieSwitch, PcieSwitch]);
        let mut links = vec![(8, 9)];
        for s in 0..4 {
            links.push((8 + s / 2, 10 + s));
            links.extend([(2 * s, 10 + s), (2 * s + 1, 10 + s)]);
        }
        let torus: Vec<(NodeId, NodeId)> = (0..12).map(|v| (v, (v + 1) % 12)).collect();
        for at in [
            layout(&kinds, &links, None),
            layout(&[Npu; 12], &torus, Some(4)),
        ] {
            for (i, p) in at.iter().enumerate() {
                for q in &at[i + 1..] {
                    let d = (p.0 - q.0).abs() + (p.1 - q.1).abs();
                    assert!(d > 0.5, "{at:?}");
                }
            }
        }
        assert_eq!(layout(&[Npu; 12], &torus, Some(4))[5], (1.0, 1.0));
    }
}
