//! The smallest complete program (docs/extending.md quotes it whole): a
//! protocol of one's own, its claim, and a first verdict. A packet goes
//! along the Gray-code path of the 3-cube, one link a slot.

use commcheck::prelude::*;
/// The path broadcast on one cube.
pub struct Path(pub Hypercube);

impl Protocol for Path {
    type Topo = Hypercube;
    type Input = NodeId; // the source
    type State = Option<PacketId>; // the packet the source has yet to send
    type Msg = PacketId; // the packet: its source's id

    fn topology(&self) -> &Hypercube {
        &self.0
    }
    fn domain(&self) -> impl Inputs<NodeId> + '_ {
        Sources::of(&self.0) // every node a source
    }
    fn claims(&self) -> Claims {
        Claims::bounded(self.0.nodes() - 1, self.0.dim())
    }
    fn init(&self, &source: &NodeId, node: NodeId) -> Option<PacketId> {
        (node == source).then_some(source)
    }
    fn packets(&self, &packet: &PacketId, mut f: impl FnMut(PacketId)) {
        f(packet)
    }
    fn step(
        &self,
        node: NodeId,
        held: &mut Option<PacketId>,
        _slot: Slot,
        arrivals: &[Arrival<PacketId>],
        _choice: u32,
        out: &mut Vec<Transmission<PacketId>>,
    ) -> bool {
        let Some(packet) = arrivals.first().map(|a| a.msg).or_else(|| held.take()) else {
            return false;
        };
        let i = (0..32).fold(0, |i, k| i ^ (node ^ packet) >> k); // inverse Gray code: its place
        let to = node ^ 1 << (i + 1).trailing_zeros();
        out.extend((i + 1 < self.0.nodes()).then(|| Transmission::link(node, to, packet)));
        false
    }
}

fn main() {
    let path = Path(Hypercube::new(3, Switching::Sf, Ports::One));
    let subject = Subject::own("path", &path);
    let outcome = check_protocol(path, &subject, &Options::default()).unwrap();
    print!("{}", outcome.text());
}
