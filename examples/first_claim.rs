//! The smallest complete program (docs/extending.md quotes it whole): a
//! protocol of one's own, its claim, and a first verdict. A packet goes
//! along the Gray-code path of the 3-cube, one link a slot.

use commcheck::check::{check_protocol, Options, Subject};
use models::{Arrival, Config, Hypercube, Ports, Protocol, Shape, Switching, Topology};
use properties::{Claims, NodeId, PacketId, PropertyName, Route, Slot, Task, Transmission};

/// The path broadcast on one cube.
pub struct Path(pub Hypercube);

impl Protocol for Path {
    type Topo = Hypercube;
    type Input = NodeId; // the source
    type State = bool; // the source has yet to send
    type Msg = PacketId; // the packet: its source's id

    fn topology(&self) -> &Hypercube {
        &self.0
    }
    fn source_input(&self, source: NodeId) -> Option<NodeId> {
        Some(source)
    }
    fn task(&self, &source: &NodeId) -> Task {
        Task::Broadcast {
            nodes: self.0.nodes(),
            sources: vec![source],
        }
    }
    fn claims(&self) -> Claims {
        Claims {
            claimed: PropertyName::OPTIMAL.to_vec(), // all but message-length
            bound: Some(self.0.nodes() - 1),
            lower_bound: Some(self.0.dim()),
            transmissions: None, // one per delivery
        }
    }
    fn init(&self, &source: &NodeId, node: NodeId) -> bool {
        node == source
    }
    fn packets(&self, &packet: &PacketId, mut f: impl FnMut(PacketId)) {
        f(packet)
    }
    fn step(
        &self,
        node: NodeId,
        source: &mut bool,
        _slot: Slot,
        arrivals: &[Arrival<PacketId>],
        _choice: u32,
        out: &mut Vec<Transmission<PacketId>>,
    ) -> bool {
        let packet = match arrivals.first() {
            Some(a) => a.msg,
            None if std::mem::take(source) => node,
            None => return false,
        };
        // The position on the path: the inverse Gray code of node ^ source.
        let (mut i, mut g) = (0, node ^ packet);
        while g != 0 {
            (i, g) = (i ^ g, g >> 1);
        }
        if i + 1 < self.0.nodes() {
            let to = node ^ (1 << (i + 1).trailing_zeros());
            out.push(Transmission {
                route: Route::Link { from: node, to },
                msg: packet,
            });
        }
        false
    }
}

fn main() {
    let (n, switching, ports) = (3, Switching::Sf, Ports::One);
    let path = Path(Hypercube::new(n, switching, ports));
    let config = Config {
        n,
        switching,
        ports,
        params: Default::default(),
    };
    let subject = Subject::own("path", Shape::Cube, config);
    let outcome = check_protocol(path, &subject, &Options::default()).unwrap();
    print!("{}", outcome.text());
    std::process::exit(outcome.refuted() as i32);
}
